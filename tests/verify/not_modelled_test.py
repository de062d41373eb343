"""A payload the functional NPU model cannot run fails the verification by
default, naming the NPU feature and the PyTorch operator, and only warns
with verify = "warn" (how its .pte was built here, so that it exists)."""

from __future__ import annotations

import json
import pathlib
import subprocess

STEM = "tests/verify/conv3d_a16w8_u85"
VERIFY = "python/ethosu_sdk/cli/verify_model"
NPU_RUN = "sim/host/npu_run"


def run(mode: str, report: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            VERIFY,
            f"--pte={STEM}.pte",
            f"--verify_dir={STEM}.verify",
            f"--npu_run={NPU_RUN}",
            f"--mode={mode}",
            f"--report_json={report}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_fails_by_default_naming_feature_and_operator(tmp_path: pathlib.Path) -> None:
    result = run("fail", tmp_path / "r.json")
    first = result.stdout.splitlines()[0] if result.stdout else ""
    assert result.returncode == 1, result.stdout + result.stderr
    assert first.startswith("verification FAILED: partition 0: the functional NPU model lacks an NPU feature"), first
    assert "48-bit accumulator chaining" in first, first
    assert "conv3d" in first, first  # the PyTorch operator
    assert first.endswith('set verify = "warn" to build it unverified'), first
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["status"] == "fail"
    assert report["not_modelled"] and report["not_modelled"][0] in first


def test_warn_reports_the_same_line(tmp_path: pathlib.Path) -> None:
    result = run("warn", tmp_path / "r.json")
    assert result.returncode == 0, result.stdout + result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith('verification WARNING (verify = "warn"): partition 0: the functional NPU model lacks'), (
        first
    )
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["not_modelled"] and report["not_modelled"][0] in first
