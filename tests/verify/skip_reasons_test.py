"""Every reason the build-time verification skips a partition fails it under
verify = "fail", in one line naming the reason, and only warns under "warn".

The reasons other than "not modelled" (not_modelled_test.py) come from the
AOT step's verification directory: what python/ethosu_sdk/aot/verify_data.py
writes for the delegates' inputs. No model of this tree makes them (they
need a delegate ExecuTorch calls other than once per Vela partition, or a
float input into a Vela partition), so each is made here with the AOT
step's own writer on a real program (mlp_softmax for an Ethos-U85, its .pte
and TOSA graphs as built) and checked through the verification CLI the
ethosu_model rule runs. The unchanged inputs verify clean: the test can tell.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import types
from typing import Callable, Optional

import pytest
import torch

from ethosu_sdk.aot import verify_data
from ethosu_sdk.tensors import read_tensor_file

STEM = "tests/aot/mlp_softmax_u85_256"
VERIFY = "python/ethosu_sdk/cli/verify_model"
NPU_RUN = "sim/host/npu_run"
FIX = 'set verify = "warn" to build it unverified'

Inputs = list[list[torch.Tensor]]


def _original() -> tuple[list[types.SimpleNamespace], Inputs]:
    """The program's partitions (as the AOT writer takes them) and each
    delegate's integer inputs, from the verification directory as built."""
    directory = STEM + ".verify"
    with open(os.path.join(directory, "manifest.json")) as f:
        entries = json.load(f)["partitions"]
    partitions: list[types.SimpleNamespace] = []
    inputs: Inputs = []
    for entry in entries:
        assert entry["skipped"] is None, entry  # the program as built verifies
        with open(os.path.join(directory, entry["tosa"]), "rb") as f:
            tosa = f.read()
        partitions.append(types.SimpleNamespace(index=entry["index"], tosa_flatbuffer=tosa, origins={}, debug_db=None))
        stored = read_tensor_file(os.path.join(directory, entry["inputs"]))
        inputs.append([torch.from_numpy(t.data.copy()) for t in stored])
    return partitions, inputs


def _extra_call(inputs: Inputs) -> Inputs:
    return inputs + [inputs[0]]


def _float_input(inputs: Inputs) -> Inputs:
    return [[inputs[0][0].to(torch.float32), *inputs[0][1:]], *inputs[1:]]


def _extra_input(inputs: Inputs) -> Inputs:
    return [[*inputs[0], torch.zeros(4, dtype=torch.int8)], *inputs[1:]]


def _one_more_element(inputs: Inputs) -> Inputs:
    first = inputs[0][0].flatten()
    return [[torch.cat([first, first[:1]]), *inputs[0][1:]], *inputs[1:]]


# (name, how the delegates' inputs are changed, the reason's words)
REASONS: list[tuple[str, Callable[[Inputs], Inputs], str]] = [
    (
        "delegate_calls_and_partitions_differ",
        _extra_call,
        r"the program has \d+ delegate calls for \d+ Vela partitions: inputs unknown",
    ),
    (
        "float_delegate_input",
        _float_input,
        r"a delegate input is neither an integer nor a bool tensor",
    ),
    ("input_count_differs_from_tosa", _extra_input, r"\d+ delegate inputs for a TOSA graph of \d+ inputs"),
    (
        "input_size_differs_from_tosa",
        _one_more_element,
        r"input \S+: \d+ elements for the TOSA shape [\[(][\d, ]+[\])]",
    ),
]


def _directory(tmp_path: pathlib.Path, change: Optional[Callable[[Inputs], Inputs]]) -> pathlib.Path:
    partitions, inputs = _original()
    directory = tmp_path / "model.verify"
    verify_data.write(str(directory), "ethos-u85-256", partitions, change(inputs) if change else inputs, {})
    # The summary next to the .pte gives region 2's size (verify.py).
    shutil.copy(STEM + ".pte", tmp_path / "model.pte")
    shutil.copy(STEM + ".summary.json", tmp_path / "model.summary.json")
    return directory


def _verify(directory: pathlib.Path, mode: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    report = directory.parent / f"{mode}.json"
    result = subprocess.run(
        [
            VERIFY,
            f"--pte={directory.parent / 'model.pte'}",
            f"--verify_dir={directory}",
            f"--npu_run={NPU_RUN}",
            f"--mode={mode}",
            f"--report_json={report}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return result, json.loads(report.read_text()) if report.exists() else {}


def test_the_unchanged_inputs_verify(tmp_path: pathlib.Path) -> None:
    result, report = _verify(_directory(tmp_path, None), "fail")
    assert result.returncode == 0, result.stdout + result.stderr
    assert report["status"] == "pass", report["summary"]
    assert report["unverified"] == []


@pytest.mark.parametrize("name,change,reason", REASONS, ids=[r[0] for r in REASONS])
def test_fail_names_the_reason(
    tmp_path: pathlib.Path, name: str, change: Callable[[Inputs], Inputs], reason: str
) -> None:
    del name
    result, report = _verify(_directory(tmp_path, change), "fail")
    assert result.returncode == 1, result.stdout + result.stderr
    first = result.stdout.splitlines()[0]
    assert re.fullmatch(
        r"verification FAILED: partition 0 was not verified: " + reason + r"(; partition \d+ .*)?; " + re.escape(FIX),
        first,
    ), first
    assert report["status"] == "fail"
    assert re.fullmatch(r"partition 0 was not verified: " + reason, report["unverified"][0]), report["unverified"]


@pytest.mark.parametrize("name,change,reason", REASONS, ids=[r[0] for r in REASONS])
def test_warn_goes_on_with_the_same_line(
    tmp_path: pathlib.Path, name: str, change: Callable[[Inputs], Inputs], reason: str
) -> None:
    del name
    result, report = _verify(_directory(tmp_path, change), "warn")
    assert result.returncode == 0, result.stdout + result.stderr
    first = result.stdout.splitlines()[0]
    assert re.match(r'verification WARNING \(verify = "warn"\): partition 0 was not verified: ' + reason, first), first
    assert FIX not in first
    assert report["status"] in ("skipped", "pass (partly skipped)"), report["status"]
