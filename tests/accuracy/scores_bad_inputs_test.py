"""Bad inputs of the accuracy report's pieces end in one clear error line:
program_scores (ethosu_run's build action) and run_model's --accuracy_scores."""

from __future__ import annotations

import os
import pathlib
import subprocess

import numpy as np
import pytest

PROGRAM_SCORES = os.path.join("python", "ethosu_sdk", "report", "program_scores")
RUN_MODEL = os.path.join("python", "ethosu_sdk", "cli", "run_model")
HOST_RUNNER = os.path.join("sim", "host", "host_runner")
MODEL = os.path.join("examples", "digits_u55_model")


def _one_error_line(argv: list[str], tool: str) -> str:
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{tool}: error: "), result.stderr
    return lines[0]


def _scores(eval_dir: pathlib.Path, summary: str = f"{MODEL}.summary.json") -> str:
    return _one_error_line(
        [
            PROGRAM_SCORES,
            f"--pte={MODEL}.pte",
            f"--summary={summary}",
            f"--eval_dir={eval_dir}",
            f"--host_runner={HOST_RUNNER}",
            f"--out={eval_dir}/scores.json",
        ],
        "program_scores",
    )


def test_empty_directory(tmp_path: pathlib.Path) -> None:
    assert "holds no .npz files" in _scores(tmp_path)


@pytest.mark.parametrize(
    "arrays, says",
    [
        ({"x": np.zeros((1, 1, 4, 4), np.float32), "label": np.int64(3)}, "has shape [1, 1, 4, 4]"),
        ({"x": np.zeros((1, 1, 8, 8), np.float32)}, "no 'label' array"),
        ({"x": np.zeros((1, 1, 8, 8), np.float32), "label": np.int64(10)}, "label 10 is out of range"),
    ],
)
def test_bad_sample(tmp_path: pathlib.Path, arrays: dict, says: str) -> None:
    np.savez(tmp_path / "0000.npz", **arrays)
    assert says in _scores(tmp_path)


def test_missing_summary(tmp_path: pathlib.Path) -> None:
    np.savez(tmp_path / "0000.npz", x=np.zeros((1, 1, 8, 8), np.float32), label=np.int64(1))
    line = _scores(tmp_path, summary=str(tmp_path / "none.json"))
    assert f"cannot read --summary={tmp_path}/none.json (No such file or directory)" in line


def test_run_model_names_a_missing_scores_file(tmp_path: pathlib.Path) -> None:
    line = _one_error_line(
        [
            RUN_MODEL,
            "--elf=examples/digits_u55_firmware.elf",
            f"--summary={MODEL}.summary.json",
            f"--expected={MODEL}.expected.tensors",
            f"--accuracy_scores={tmp_path}/none.json",
            f"--report_dir={tmp_path}/report",
        ],
        "run_model",
    )
    assert f"cannot read --accuracy_scores={tmp_path}/none.json" in line
