"""quantize() on control flow: a `cond` inside a cond's branch quantizes
per branch where the NPU runs control flow, and fails in one line naming
the way out where it does not."""

from __future__ import annotations

import pytest
import torch
from executorch.backends.arm.test.ops import test_cond

from ethosu_sdk.aot import export, quantization
from ethosu_sdk.aot.errors import QuantizationError
from ethosu_sdk.aot.targets import QuantMode, make_compile_spec, resolve_target

# ExecuTorch's own test_cond [nested_one_arg_one_output]: a cond inside the
# outer cond's true branch, with one calibration sample per path as
# ExecuTorch's test gives them (the branch taken, then the other).
_NestedCond = test_cond.CondNestedOneArgOneOutput
_SAMPLES = list(
    test_cond._make_calibration_samples(
        _NestedCond(), (torch.rand(1, 1, 2, 2, generator=torch.Generator().manual_seed(0)) + 0.1,)
    )
)


def _quantize(target: str) -> torch.fx.GraphModule:
    graph = export.export_for_quantization(_NestedCond(), _SAMPLES[0])
    spec = make_compile_spec(resolve_target(target), QuantMode.INT8)
    return quantization.quantize(graph, spec, QuantMode.INT8, _SAMPLES)


def test_nested_cond_quantizes_per_branch_where_the_npu_branches() -> None:
    quantized = _quantize("ethos-u85-256")
    # One int8 step of the widest range calibration saw (inputs and outputs).
    seen = torch.cat([t.flatten() for sample in _SAMPLES for t in (*sample, _NestedCond()(*sample))])
    step = float(seen.max() - seen.min()) / 255
    for sample in _SAMPLES:
        # Every path is quantized with calibrated parameters (a branch no
        # sample took would have scale 1.0): within a few steps of PyTorch.
        assert torch.allclose(quantized(*sample), _NestedCond()(*sample), atol=3 * step)
    # The inner branches carry quantize/dequantize nodes of their own.
    inner = [m for name, m in quantized.named_modules() if name.count(".") >= 1 and isinstance(m, torch.fx.GraphModule)]
    assert any("quantize_per_tensor" in str(n.target) for m in inner for n in m.graph.nodes if n.op == "call_function")


def test_nested_cond_without_npu_control_flow_names_the_way_out() -> None:
    with pytest.raises(QuantizationError, match=r"inside a cond's branch needs an NPU that runs control flow"):
        _quantize("ethos-u55-128")
