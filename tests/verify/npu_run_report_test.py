"""verify.py's reading of npu_run's JSON report (--json_out) on a real case:
a Vela payload and the TOSA reference model's outputs for it
(//sim/tests/npu:u85_conv1x1). The differences are planted here, so the
counts and the histogram the verification reads are known without npu_run:
the payload as compiled matches the reference exactly; a reference with
elements moved by a known step differs by exactly those elements and steps;
a fault planted in the NPU's last operation (--inject) differs in one
element by one step."""

import pathlib
import subprocess
from typing import Any

import numpy as np
import pytest

from ethosu_sdk.tensors import read_tensor_file, write_tensor_file
from ethosu_sdk.verify import verify

NPU_RUN = "sim/host/npu_run"
CASE = "sim/tests/npu/u85_conv1x1"


def _case() -> tuple[bytes, list[np.ndarray], list[np.ndarray]]:
    payload = pathlib.Path(CASE + ".payload").read_bytes()
    tensors = [t.data for t in read_tensor_file(CASE + ".tensors")]
    assert len(tensors) == 2, "u85_conv1x1 has one input and one output"
    return payload, tensors[:1], tensors[1:]


def _run(tmp_path: pathlib.Path, outputs: list[np.ndarray] | None = None, inject: int | None = None) -> Any:
    payload, inputs, reference = _case()
    results, _ = verify._run_npu(NPU_RUN, payload, inputs, outputs or reference, str(tmp_path), None, inject)
    return results


def test_exact_payload_reports_no_difference(tmp_path: pathlib.Path) -> None:
    _, _, reference = _case()
    assert _run(tmp_path) == [{"index": 0, "elements": reference[0].size, "differing": 0, "histogram": {}}]


def test_planted_reference_differences_are_counted(tmp_path: pathlib.Path) -> None:
    _, _, reference = _case()
    moved = reference[0].copy()
    flat = moved.reshape(-1)
    # Model - reference: +3 where the reference was lowered by 3, -2 where raised by 2.
    flat[[1, 5, 9]] = np.clip(flat[[1, 5, 9]].astype(np.int32) - 3, -128, 127)
    flat[7] = np.clip(int(flat[7]) + 2, -128, 127)
    want: dict[int, int] = {}
    for k in (1, 5, 7, 9):
        step = int(reference[0].reshape(-1)[k]) - int(flat[k])
        if step:
            want[step] = want.get(step, 0) + 1
    assert want, "the planted changes moved no element (all at the clip)"
    (result,) = _run(tmp_path, outputs=[moved])
    assert result["differing"] == sum(want.values())
    assert result["histogram"] == want


def test_injected_fault_is_one_element_one_step(tmp_path: pathlib.Path) -> None:
    payload, inputs, reference = _case()
    report_path = tmp_path / "clean.json"
    (tmp_path / "payload.bin").write_bytes(payload)
    write_tensor_file(tmp_path / "case.tensors", inputs + reference)
    subprocess.run(
        [NPU_RUN, str(tmp_path / "payload.bin"), str(tmp_path / "case.tensors"), f"--json_out={report_path}"],
        check=True,
    )
    operations = verify.read_npu_run_report(str(report_path))["operations"]
    assert operations >= 1
    # The last operation writes the output: nothing after it spreads the fault.
    (result,) = _run(tmp_path, inject=operations - 1)
    assert result["differing"] == 1
    assert list(result["histogram"].values()) == [1]
    assert abs(next(iter(result["histogram"]))) == 1


def test_report_of_another_format_is_refused(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "old.json"
    path.write_text('{"format_version": 0}')
    with pytest.raises(verify.VerifyError, match="rebuild //sim/host:npu_run"):
        verify.read_npu_run_report(str(path))
