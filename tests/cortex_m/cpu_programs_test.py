"""What the CPU runs in two compiled programs, read from their summaries
(the .pte's own operator list) and reference files: the Ethos-U55's and
the Ethos-U85's fallbacks are cortex_m:: int8 kernels, and the integer-I/O program takes and
returns int8 tensors with no quantize or dequantize left. The QEMU runs are
:strided_pool_u55, :dilated_upsample_u85 and :small_cnn_m55_int8io."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ethosu_sdk.pte import read_pte
from ethosu_sdk.tensors.tensor_file import read_tensor_file

HERE = Path("tests/cortex_m")
INT8 = 1  # ExecuTorch's ScalarType::Char (schema/program.fbs)


def _summary(name: str) -> dict:
    return json.loads((HERE / f"{name}.summary.json").read_text())


def test_u55_fallback_runs_as_a_cortex_m_kernel() -> None:
    summary = _summary("strided_pool_u55_model")
    calls = summary["pte_kernel_calls"]
    assert calls.get("cortex_m::quantized_avg_pool2d.out") == 1, calls
    # No float operator between a dequantize and a quantize is left.
    assert not any(op.startswith("aten::") for op in calls), calls
    assert len(summary["delegates"]) == 1 and not summary["fully_delegated"], summary


def test_u85_fallback_runs_as_a_cortex_m_kernel() -> None:
    summary = _summary("dilated_upsample_u85_model")
    calls = summary["pte_kernel_calls"]
    assert calls.get("cortex_m::quantized_transpose_conv2d.out") == 1, calls
    assert not any(op.startswith("aten::") for op in calls), calls
    assert len(summary["delegates"]) == 1 and not summary["fully_delegated"], summary


def test_int8_io_program_takes_and_returns_int8() -> None:
    name = "small_cnn_m55_int8io_model"
    summary = _summary(name)
    assert summary["io"] == "int8"
    plan = read_pte(str(HERE / f"{name}.pte")).plan("forward")
    assert [t.scalar_type for t in plan.inputs + plan.outputs] == [INT8, INT8], plan
    (given,) = read_tensor_file(str(HERE / f"{name}.input.tensors"))
    (expected,) = read_tensor_file(str(HERE / f"{name}.expected.tensors"))
    assert given.data.dtype == np.int8 and expected.data.dtype == np.int8
    # The folded operators' parameters, for the caller to quantize with.
    assert (given.scale, given.zero_point) == (summary["inputs"][0]["scale"], summary["inputs"][0]["zero_point"])
    assert summary["inputs"][0]["scale"] > 0 and summary["outputs"][0]["scale"] > 0
