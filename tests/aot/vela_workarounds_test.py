"""The graph rewrites around Vela 5.1.0's unbind MatMul issue: exact (the
rewritten graph gives PyTorch's own outputs of the original model, bit for
bit), applied only where an unbind() slice feeds a MatMul, and recorded in
the summary. That Vela then compiles the transformer block correctly is
checked by its build-time verification against the TOSA reference model
(//tests/aot:transformer_block_*) and on QEMU (//tests/firmware_model)."""

from __future__ import annotations

import json
import operator

import pytest
import torch
from torch import nn

from ethosu_sdk.aot import export
from ethosu_sdk.aot.workarounds import vela_faults, vela_workarounds
from ethosu_sdk.models import load_model


def _graph(name: str) -> tuple[nn.Module, tuple[torch.Tensor, ...], torch.fx.GraphModule]:
    loaded = load_model(name, seed=0)
    return loaded.module, loaded.example_inputs, export.export_for_quantization(loaded.module, loaded.example_inputs)


def _targets(graph_module: torch.fx.GraphModule) -> list:
    return [node.target for node in graph_module.graph.nodes if node.op == "call_function"]


@pytest.mark.parametrize("split_heads", [False, True])
def test_rewrite_is_exact(split_heads: bool) -> None:
    module, inputs, graph_module = _graph("transformer_block")
    workaround = vela_workarounds.avoid_unbind_matmul(graph_module, split_heads=split_heads)
    assert workaround is not None and workaround.nodes[0] == "unbind"
    targets = _targets(graph_module)
    assert torch.ops.aten.unbind.int not in targets and operator.getitem not in targets
    matmuls = targets.count(torch.ops.aten.matmul.default)
    assert matmuls == (8 if split_heads else 2)  # 4 heads x 2 MatMuls when split
    for seed in range(3):
        x = torch.randn(inputs[0].shape, generator=torch.Generator().manual_seed(seed))
        with torch.no_grad():
            assert torch.equal(graph_module(x), module(x))


@pytest.mark.parametrize("name", ["mobilenet_v2", "mlp_softmax", "kws_dscnn"])
def test_other_models_are_untouched(name: str) -> None:
    _, _, graph_module = _graph(name)
    before = str(graph_module.graph)
    assert vela_workarounds.avoid_unbind_matmul(graph_module, split_heads=True) is None
    assert str(graph_module.graph) == before


class _UnbindWithoutMatmul(nn.Module):
    """An unbind() of a rank-5 permute whose slices are only added: not the pattern."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a, b = x.permute(2, 0, 3, 1, 4).unbind(0)
        return a + b


def test_unbind_without_matmul_is_untouched() -> None:
    graph_module = export.export_for_quantization(_UnbindWithoutMatmul(), (torch.randn(1, 4, 2, 2, 8),))
    assert vela_workarounds.avoid_unbind_matmul(graph_module, split_heads=True) is None


@pytest.mark.parametrize(
    "target,nodes",
    [
        ("ethos-u85-256", ["unbind"]),
        ("ethos-u55-128", ["unbind", "matmul", "matmul_1"]),
    ],
)
def test_summary_names_the_workaround(target: str, nodes: list[str]) -> None:
    with open(f"tests/aot/transformer_block_{target.replace('ethos-', '').replace('-', '_')}.summary.json") as f:
        summary = json.load(f)
    expected = [{"name": vela_faults.UNBIND_MATMUL.name, "nodes": nodes}]
    assert summary["vela_workarounds"] == (expected if vela_faults.applies(vela_faults.UNBIND_MATMUL) else [])


def _transpose_pair_graph(output_inner: bool, back: list[int]) -> torch.fx.GraphModule:
    """x -> TRANSPOSE(NHWC->NCHW) -> TRANSPOSE(`back`) -> neg, the first
    transpose also a graph output when `output_inner` (the detector's
    partition: tests/kernels:detection_u55_128)."""
    import executorch.backends.arm.tosa.dialect  # noqa: F401 (registers the tosa ops)
    from executorch.exir.dialects._ops import ops as exir_ops

    transpose = exir_ops.backend.tosa.TRANSPOSE.default
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    inner = graph.call_function(transpose, (x, [0, 3, 1, 2]))
    outer = graph.call_function(transpose, (inner, back))
    result = graph.call_function(torch.ops.aten.neg.default, (outer,))
    graph.output((inner, result) if output_inner else (result,))
    return torch.fx.GraphModule(nn.Module(), graph)


def test_output_transpose_pair_is_bypassed() -> None:
    graph_module = _transpose_pair_graph(output_inner=True, back=[0, 2, 3, 1])
    assert vela_workarounds.fold_output_transpose_pairs(graph_module) == ["tosa_transpose_default_1"]
    nodes = {node.name: node for node in graph_module.graph.nodes}
    assert "tosa_transpose_default_1" not in nodes
    assert nodes["neg_default"].args[0] is nodes["x"]  # reads the untransposed input
    assert nodes["tosa_transpose_default"] in nodes["output"].all_input_nodes  # the output stays


@pytest.mark.parametrize(
    "output_inner, back",
    [
        (False, [0, 2, 3, 1]),  # not a partition output: Vela keeps it
        (True, [0, 1, 3, 2]),  # not the inverse: the pair moves data
    ],
)
def test_other_transpose_pairs_are_untouched(output_inner: bool, back: list[int]) -> None:
    graph_module = _transpose_pair_graph(output_inner, back)
    before = str(graph_module.graph)
    assert vela_workarounds.fold_output_transpose_pairs(graph_module) == []
    assert str(graph_module.graph) == before


def test_detector_keeps_its_partition_outputs(tmp_path, monkeypatch) -> None:
    """The detector (tests/kernels:portable_models) reads its stem's output
    inside the first partition and past the CPU's upsample: with the bypass
    Vela keeps both outputs; without it the build stops with one line, on
    every Vela that vela_faults.LOST_OUTPUT applies to."""
    from ethosu_sdk.aot import CompileOptions, compile_model
    from ethosu_sdk.errors import SdkError

    options = CompileOptions(model="portable_models:detection", target="ethos-u55-128", quantize="int8")
    result = compile_model(options, str(tmp_path / "kept.pte"), progress=lambda _: None)
    applied = {w["name"]: w["nodes"] for w in result.summary.vela_workarounds}
    if not vela_faults.applies(vela_faults.LOST_OUTPUT):
        # The bypass is off: the build above is the check that Vela keeps the output.
        assert vela_workarounds.LOST_OUTPUT not in applied
        return
    assert applied.get(vela_workarounds.LOST_OUTPUT)

    monkeypatch.setattr(vela_workarounds, "fold_output_transpose_pairs", lambda graph_module: [])
    with pytest.raises(SdkError, match="partition 0 has 1 output.* where its TOSA graph has 2 .*Vela dropped"):
        compile_model(options, str(tmp_path / "lost.pte"), progress=lambda _: None)
