"""lowering_reference on a partition graph of PyTorch's own operators: a
quantize result, as before, and an integer output of another operator
(a right shift of int32 tensors, issue 34), kept and marked `exact` so
that the lowering check compares it without a tolerance."""

import torch

from ethosu_sdk.aot import lowering_reference


class _Partition(torch.nn.Module):
    """A quantized value and an integer operator's result, both outputs."""

    def forward(self, x: torch.Tensor, a: torch.Tensor, s: torch.Tensor):
        q = torch.ops.quantized_decomposed.quantize_per_tensor.default(x, 0.05, 3, -128, 127, torch.int8)
        return q, torch.bitwise_right_shift(a, s), x * 2


def _graph() -> torch.fx.GraphModule:
    import torch.ao.quantization.fx._decomposed  # noqa: F401 (registers quantized_decomposed)

    return torch.fx.symbolic_trace(_Partition())


def _inputs() -> list[torch.Tensor]:
    torch.manual_seed(0)
    a = torch.randint(-100, 100, (2, 9), dtype=torch.int32)
    s = torch.randint(0, 5, (2, 9), dtype=torch.int32)
    return [torch.randn(2, 9), a, s]


def test_an_integer_output_is_kept_besides_quantize_results() -> None:
    graph = _graph()
    inputs = _inputs()
    values, outputs = lowering_reference.quantized_values(graph, inputs)
    quantize, shift, _ = outputs
    assert quantize is not None and shift is not None
    # PyTorch's own results: quantize_per_tensor, and `>>` (floor).
    assert values[shift].dtype == torch.int32 and torch.equal(values[shift], inputs[1] >> inputs[2])
    assert values[quantize].dtype == torch.int8
    # The float output is neither: nothing to compare it with.
    assert outputs[2] is None


def test_the_integer_output_is_marked_exact() -> None:
    graph = _graph()
    values, outputs = lowering_reference.quantized_values(graph, _inputs())
    entries = lowering_reference.entries_for(graph, values, outputs, {}, {})
    by_node = {e["node"]: e for e in entries}
    shift = by_node[outputs[1]]
    assert shift["exact"] and shift["output"] == 1 and shift["tosa"] is None and shift["root"] is None
    assert shift["op"].startswith("bitwise_right_shift") and shift["shape"] == [2, 9]
    quantize = by_node[outputs[0]]
    assert not quantize.get("exact") and quantize["output"] == 0 and quantize["scale"] == 0.05
