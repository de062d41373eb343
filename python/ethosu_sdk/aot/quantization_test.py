"""quantize() on control flow: a `cond` inside a cond's branch quantizes
per branch where the NPU runs control flow, and fails in one line naming
the way out where it does not. And the user's quantizer_setup: called
after the SDK's configuration, honoured by ExecuTorch's quantizer, and
every way to name it wrongly one error line."""

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


_SETUP_MODULE = """
import torch
from executorch.backends.arm.quantizer import get_symmetric_a16w8_quantization_config

seen = []

def sigmoid_in_16_bits(quantizer):
    seen.append(quantizer.global_config)
    quantizer.set_module_type(torch.nn.Sigmoid, get_symmetric_a16w8_quantization_config())

def broken(quantizer):
    raise ValueError("no such config")
"""


class _LinearSigmoid(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)
        self.sigmoid = torch.nn.Sigmoid()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.sigmoid(self.linear(x))


def _sigmoid_output_dtype(setup: str | None) -> torch.dtype:
    inputs = (torch.randn(2, 4, generator=torch.Generator().manual_seed(0)),)
    graph = export.export_for_quantization(_LinearSigmoid(), inputs)
    spec = make_compile_spec(resolve_target("ethos-u85-256"), QuantMode.INT8)
    quantized = quantization.quantize(graph, spec, QuantMode.INT8, [inputs], scheme=quantization.Scheme(setup=setup))
    (sigmoid,) = [n for n in quantized.graph.nodes if n.target == torch.ops.aten.sigmoid.default]
    (quantize,) = sigmoid.users
    return quantize.args[-1]


def test_quantizer_setup_configures_part_of_the_graph(tmp_path, monkeypatch) -> None:
    (tmp_path / "my_setup.py").write_text(_SETUP_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _sigmoid_output_dtype(None) == torch.int8
    assert _sigmoid_output_dtype("my_setup:sigmoid_in_16_bits") == torch.int16
    import my_setup

    # Called once, after the SDK's int8 global config.
    ((config,),) = [my_setup.seen]
    assert config.output_activation.dtype == torch.int8
    with pytest.raises(QuantizationError, match=r"^quantizer_setup my_setup:broken failed \(ValueError\): no such"):
        _sigmoid_output_dtype("my_setup:broken")


def test_a_wrong_quantizer_setup_names_the_option() -> None:
    # Each way a reference can be wrong: user_function_test.
    with pytest.raises(QuantizationError, match=r"^quantizer_setup 'math:pi': pi is not a function$"):
        quantization.load_setup("math:pi")
