"""PT2E quantization with the Arm quantizers (EthosUQuantizer / TOSAQuantizer)."""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterator, Optional, Sequence

import torch

from ethosu_sdk.aot import user_function
from ethosu_sdk.aot.errors import QuantizationError
from ethosu_sdk.aot.targets import QuantMode


@dataclasses.dataclass(frozen=True)
class Scheme:
    """How the weights and the graph's inputs and outputs are quantized,
    beyond the activations' mode (CompileOptions' weights, per_channel and
    io_quantization, and the user's quantizer_setup; the defaults are the
    SDK's int8 per-channel weights)."""

    weights: str = "int8"  # "int4": ExecuTorch's A8W4, weights in [-7, 7]
    per_channel: bool = True  # False: one scale per weight tensor
    io_quantization: str = "operators"  # "set_io": the quantizer's set_io with the global config
    setup: Optional[str] = None  # "module:function" called with the configured quantizer (load_setup)


def make_quantizer(compile_spec, mode: QuantMode, a16w8_modules: Sequence[str] = (), scheme: Scheme = Scheme()):
    """Quantizer for a compile spec with a global config for `mode`:
    symmetric int8 weights, per channel unless `scheme.per_channel` is False
    (`scheme.weights="int4"` with INT8: in [-7, 7], ExecuTorch's A8W4
    config); int8 (INT8) or int16 (A16W8) activations.
    `a16w8_modules`: PyTorch module paths given int16 activations whatever the
    global mode (the quantizer's module-name config; the precision tuner's
    per-layer choice, aot/search/precision.py)."""
    from executorch.backends.arm.ethosu import EthosUCompileSpec
    from executorch.backends.arm.quantizer import EthosUQuantizer, TOSAQuantizer

    if isinstance(compile_spec, EthosUCompileSpec):
        quantizer = EthosUQuantizer(compile_spec)
    else:
        quantizer = TOSAQuantizer(compile_spec)
    if mode is QuantMode.A16W8 and not compile_spec.tosa_spec.support_extension("int16"):
        raise QuantizationError(f"{compile_spec.tosa_spec} has no int16 extension: A16W8 is not available")
    config = global_config(mode, scheme)
    quantizer.set_global(config)
    if scheme.io_quantization == "set_io":
        # What ExecuTorch's Arm test pipelines do for symmetric_io_quantization.
        quantizer.set_io(config)
    if a16w8_modules:
        _set_a16w8_modules(quantizer, compile_spec, a16w8_modules, scheme.per_channel)
    if scheme.setup:
        setup = load_setup(scheme.setup)
        try:
            setup(quantizer)
        except Exception as e:  # the user's code may raise anything
            raise QuantizationError(f"quantizer_setup {scheme.setup} failed ({type(e).__name__}): {e}") from e
    return quantizer


def load_setup(reference: str) -> Callable[[object], object]:
    """The function named by `package.module:function`, `module:object.function`
    or `FILE.py:function` (user_function.py)."""
    return user_function.load(reference, "quantizer_setup", QuantizationError)


def global_config(mode: QuantMode, scheme: Scheme):
    """ExecuTorch's quantization config for `mode` and `scheme` (also what
    the conformance suite compares a case's observers with)."""
    from executorch.backends.arm.quantizer import (
        get_symmetric_a16w8_quantization_config,
        get_symmetric_quantization_config,
    )
    from executorch.backends.arm.quantizer.arm_quantizer import get_symmetric_a8w4_quantization_config

    if scheme.weights == "int4" and mode is not QuantMode.INT8:
        raise QuantizationError(f"4-bit weights go with int8 activations (A8W4), not {mode.value}")
    if mode is QuantMode.INT8 and scheme.weights == "int4":
        # Post-training, as every other config here (the function defaults to QAT's observers).
        return get_symmetric_a8w4_quantization_config(is_per_channel=scheme.per_channel, is_qat=False)
    if mode is QuantMode.INT8:
        return get_symmetric_quantization_config(is_per_channel=scheme.per_channel)
    if mode is QuantMode.A16W8:
        return get_symmetric_a16w8_quantization_config(is_per_channel=scheme.per_channel)
    raise QuantizationError(f"no quantizer for mode {mode.value}")


def _set_a16w8_modules(quantizer, compile_spec, modules: Sequence[str], per_channel: bool) -> None:
    from executorch.backends.arm.quantizer import get_symmetric_a16w8_quantization_config

    if not compile_spec.tosa_spec.support_extension("int16"):
        raise QuantizationError(f"{compile_spec.tosa_spec} has no int16 extension: 16-bit layers are not available")
    config = get_symmetric_a16w8_quantization_config(is_per_channel=per_channel)
    for module in modules:
        quantizer.set_module_name(module, config)


def quantize(
    graph_module: torch.fx.GraphModule,
    compile_spec,
    mode: QuantMode,
    samples: Sequence[tuple[torch.Tensor, ...]],
    on_sample: Optional[Callable[[int, int], None]] = None,
    a16w8_modules: Sequence[str] = (),
    scheme: Scheme = Scheme(),
) -> torch.fx.GraphModule:
    """prepare_pt2e, run the calibration samples, convert_pt2e.

    Control flow the NPU runs is quantized the way ExecuTorch's own Arm
    pipelines do it (`_quantize_with_submodules`, quantizes_branches): the
    quantizer also prepares and converts each `cond` branch and a loop's
    condition, at any depth, which prepare_pt2e on the top graph leaves in
    float (or, for a `cond` inside a branch, fails on). Give one calibration
    sample per path through the branches: a branch no sample takes gets
    default quantization parameters. On an NPU without control flow
    (Ethos-U55/U65) a `cond` keeps its branches in float on the CPU, where
    the SDK runs and verifies them.
    """
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    quantizer = make_quantizer(compile_spec, mode, a16w8_modules, scheme)
    branches = quantizes_branches(graph_module, compile_spec)
    if not branches and _cond_in_a_branch(graph_module):
        raise QuantizationError(
            "a torch.cond inside a cond's branch needs an NPU that runs control flow (an ethos-u85 target): "
            "with the branches left in float for the CPU, the Arm quantizer cannot annotate the inner cond; "
            "move the inner condition out of the branch or use torch.where"
        )
    try:
        if branches:
            with torch.no_grad():
                return quantizer._quantize_with_submodules(graph_module, _counted(samples, on_sample))
        prepared = prepare_pt2e(graph_module, quantizer)
        with torch.no_grad():
            for sample in _counted(samples, on_sample):
                prepared(*sample)
        return convert_pt2e(prepared)
    except QuantizationError:
        raise
    except Exception as e:
        raise QuantizationError(f"PT2E quantization failed ({type(e).__name__}): {e}") from e


def quantizes_branches(graph_module: torch.fx.GraphModule, compile_spec) -> bool:
    """Whether quantize() quantizes the control flow's subgraphs too: always
    for a `while_loop` (ExecuTorch cannot run one on the CPU, so it must
    become one NPU program), for a `cond` where the TOSA profile has control
    flow (the Ethos-U85's `cf` extension)."""
    calls = {node.target for node in graph_module.graph.nodes if node.op == "call_function"}
    if torch.ops.higher_order.while_loop in calls:
        return True
    tosa_spec = getattr(compile_spec, "tosa_spec", None)
    return torch.ops.higher_order.cond in calls and bool(tosa_spec and tosa_spec.support_extension("cf"))


def _cond_in_a_branch(graph_module: torch.fx.GraphModule) -> bool:
    """Whether a `cond` of the top graph has another `cond` in a branch."""
    for node in graph_module.graph.nodes:
        if node.op == "call_function" and node.target is torch.ops.higher_order.cond:
            for branch in node.args[1:3]:
                module = getattr(graph_module, branch.target, None) if isinstance(branch, torch.fx.Node) else None
                if isinstance(module, torch.fx.GraphModule) and any(
                    inner.op == "call_function" and inner.target is torch.ops.higher_order.cond
                    for inner in module.graph.nodes
                ):
                    return True
    return False


def _counted(
    samples: Sequence[tuple[torch.Tensor, ...]], on_sample: Optional[Callable[[int, int], None]]
) -> Iterator[tuple[torch.Tensor, ...]]:
    """`samples`, reporting to `on_sample` once each one has been run."""
    for index, sample in enumerate(samples):
        yield sample
        if on_sample:
            on_sample(index + 1, len(samples))


def io_quantization(graph_module: torch.fx.GraphModule) -> tuple[list[tuple[float, int]], list[tuple[float, int]]]:
    """(scale, zero point) of each graph input and output of a converted module.

    An input's parameters are those of the quantize node that consumes it, an
    output's those of the dequantize node that produces it; (0.0, 0) where a
    tensor is not quantized or is quantized per channel.
    """
    per_tensor_q = {
        torch.ops.quantized_decomposed.quantize_per_tensor.default,
        torch.ops.quantized_decomposed.quantize_per_tensor.tensor,
    }
    per_tensor_dq = {
        torch.ops.quantized_decomposed.dequantize_per_tensor.default,
        torch.ops.quantized_decomposed.dequantize_per_tensor.tensor,
    }

    def params(node) -> tuple[float, int]:
        scale, zero_point = node.args[1], node.args[2]
        if isinstance(scale, (float, int)) and isinstance(zero_point, int):
            return float(scale), int(zero_point)
        return 0.0, 0

    inputs = []
    for node in graph_module.graph.nodes:
        if node.op == "placeholder":
            q = next((u for u in node.users if u.target in per_tensor_q), None)
            inputs.append(params(q) if q is not None else (0.0, 0))
    outputs = []
    output_node = next(n for n in graph_module.graph.nodes if n.op == "output")
    results = output_node.args[0]
    for value in results if isinstance(results, (tuple, list)) else (results,):
        is_dq = isinstance(value, torch.fx.Node) and value.target in per_tensor_dq
        outputs.append(params(value) if is_dq else (0.0, 0))
    return inputs, outputs
