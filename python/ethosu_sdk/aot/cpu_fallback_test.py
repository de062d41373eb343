"""The CPU fallbacks of an Ethos-U55 program through ExecuTorch's cortex_m
passes: a 2-D convolution the partitioner leaves behind becomes a cortex_m::
int8 operator; a 3-D one, which ExecuTorch's substitution cannot take (it
raised inside AtenToCortexMPass and failed the whole lowering, found by the
conformance bench), stays for the portable kernel."""

from __future__ import annotations

import copy

import pytest
import torch
from torch import nn

from ethosu_sdk.aot import cpu_fallback
from ethosu_sdk.aot.export import export_for_quantization, export_program
from ethosu_sdk.aot.quantization import quantize
from ethosu_sdk.aot.targets import QuantMode, make_compile_spec, resolve_target


def _quantized_edge(model: nn.Module, example: torch.Tensor):
    """The quantized model as an edge program with nothing delegated: every
    operator is left on the CPU, as a fallback is."""
    from executorch.exir import EdgeCompileConfig, to_edge

    target = resolve_target("ethos-u55-128")
    spec = make_compile_spec(target, QuantMode.INT8)
    torch.manual_seed(0)
    graph = quantize(export_for_quantization(model.eval(), (example,)), spec, QuantMode.INT8, [(example,)])
    return to_edge(export_program(graph, (example,)), compile_config=EdgeCompileConfig(_check_ir_validity=False))


def _operators(edge) -> list[str]:
    graph = edge.exported_program().graph_module.graph
    return [str(n.target) for n in graph.nodes if n.op == "call_function"]


def test_2d_convolution_becomes_a_cortex_m_operator() -> None:
    edge = _quantized_edge(nn.Conv2d(3, 4, 3), torch.randn(1, 3, 8, 8).to(memory_format=torch.channels_last))
    assert cpu_fallback.fallbacks(edge), _operators(edge)
    rewritten = cpu_fallback.to_cortex_m(edge, "ethos-u55")
    assert rewritten is not edge
    assert any("cortex_m" in op and "conv2d" in op for op in _operators(rewritten)), _operators(rewritten)


def test_3d_convolution_stays_for_the_portable_kernel() -> None:
    edge = _quantized_edge(nn.Conv3d(3, 4, 3), torch.randn(1, 3, 6, 6, 6))
    assert cpu_fallback.fallbacks(edge), _operators(edge)
    # ExecuTorch's passes themselves raise on it (the reason for the check):
    # if this stops raising, the check may go.
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager

    with pytest.raises(Exception, match="AtenToCortexMPass"):
        CortexMPassManager(copy.deepcopy(edge.exported_program())).transform()
    assert cpu_fallback.to_cortex_m(edge, "ethos-u55") is edge
