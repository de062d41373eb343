"""cortex_m programs on the host runner: every output byte equal to the
lowered graph's own output in Python (ExecuTorch's reference of each
cortex_m operator), and every int8 operator a cortex_m:: one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors.tensor_file import read_tensor_file

HERE = Path("tests/cortex_m")
PROGRAMS = ["small_cnn_m55", "mobilenet_v2_m55"]


@pytest.mark.parametrize("name", PROGRAMS)
def test_bit_exact_with_the_lowered_graph(name: str) -> None:
    expected_path = HERE / f"{name}.expected.tensors"
    run = subprocess.run(
        [
            str(HERE / f"{name}_runner"),
            f"--pte={HERE / name}.pte",
            f"--input={HERE / name}.tensors",
            f"--expected={expected_path}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    parsed = protocol.parse(run.stdout)
    assert run.returncode == 0 and parsed.result == "PASS", run.stdout[-3000:] + run.stderr[-2000:]
    expected = read_tensor_file(expected_path)
    assert len(parsed.outputs) == len(expected)
    for i, ref in enumerate(expected):
        ours = parsed.outputs[i]
        assert ours.dtype == ref.data.dtype and ours.shape == ref.data.shape
        np.testing.assert_array_equal(ours, ref.data)


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_int8_operators_are_cortex_m_ones(name: str) -> None:
    from executorch.exir._serialize._program import deserialize_pte_binary

    plan = deserialize_pte_binary((HERE / f"{name}.pte").read_bytes()).program.execution_plan[0]
    names = {f"{op.name}.{op.overload}" for op in plan.operators}
    assert {
        "cortex_m::quantized_conv2d.out",
        "cortex_m::quantized_depthwise_conv2d.out",
        "cortex_m::quantized_add.out",
        "cortex_m::quantized_linear.out",
    } <= names, names
    assert not any(n.startswith(("aten::convolution", "aten::addmm", "aten::linear")) for n in names), names
