"""lowering_reference on a partition graph of PyTorch's own operators: a
quantize result, as before, and an integer output of another operator
(a right shift of int32 tensors, issue 34), kept and marked `exact` so
that the lowering check compares it without a tolerance."""

import math
from typing import Any

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
    values, outputs, _ = lowering_reference.quantized_values(graph, inputs)
    quantize, shift, _ = outputs
    assert quantize is not None and shift is not None
    # PyTorch's own results: quantize_per_tensor, and `>>` (floor).
    assert values[shift].dtype == torch.int32 and torch.equal(values[shift], inputs[1] >> inputs[2])
    assert values[quantize].dtype == torch.int8
    # The float output is neither: nothing to compare it with.
    assert outputs[2] is None


def test_the_integer_output_is_marked_exact() -> None:
    graph = _graph()
    values, outputs, _ = lowering_reference.quantized_values(graph, _inputs())
    entries = lowering_reference.entries_for(graph, values, outputs, {}, {})
    by_node = {e["node"]: e for e in entries}
    shift = by_node[outputs[1]]
    assert shift["exact"] and shift["output"] == 1 and shift["tosa"] is None and shift["root"] is None
    assert shift["op"].startswith("bitwise_right_shift") and shift["shape"] == [2, 9]
    quantize = by_node[outputs[0]]
    assert not quantize.get("exact") and quantize["output"] == 0 and quantize["scale"] == 0.05


class _Combining(torch.nn.Module):
    """An int16 quantized value multiplied by, added to, and exponentiated
    after a dequantized delegate input: what the pattern sweep's A16W8 mul
    and add consumers are in a partition graph."""

    def forward(self, y: torch.Tensor, x: torch.Tensor):
        qd = torch.ops.quantized_decomposed
        qy = qd.quantize_per_tensor.default(y, 0.0008, 0, -32768, 32767, torch.int16)
        dy = qd.dequantize_per_tensor.default(qy, 0.0008, 0, -32768, 32767, torch.int16)
        dx = qd.dequantize_per_tensor.default(x, 0.02, 0, -32768, 32767, torch.int16)
        product = qd.quantize_per_tensor.default(torch.relu(dy * dx), 0.0002, 0, -32768, 32767, torch.int16)
        total = qd.quantize_per_tensor.default(dy + dx, 0.0003, 0, -32768, 32767, torch.int16)
        other = qd.quantize_per_tensor.default(torch.exp(dy), 0.001, 0, -32768, 32767, torch.int16)
        return product, total, other


def _entries(
    module: torch.nn.Module,
) -> tuple[dict[str, torch.Tensor], list[dict[str, Any]], dict[int, dict[str, Any]], torch.Tensor]:
    """`module` traced and run on a float `y` and an int16 delegate input
    `x`: PyTorch's values, the entries, the entries by output, and `x`."""
    import torch.ao.quantization.fx._decomposed  # noqa: F401 (registers quantized_decomposed)

    graph = torch.fx.symbolic_trace(module)
    torch.manual_seed(0)
    y, x = torch.rand(2, 8), torch.randint(-100, 100, (2, 8), dtype=torch.int16)
    values, outputs, magnitudes = lowering_reference.quantized_values(graph, [y, x])
    entries = lowering_reference.entries_for(graph, values, outputs, {}, {}, magnitudes)
    return values, entries, {e["output"]: e for e in entries if e["output"] is not None}, x


def test_a_sum_or_product_names_the_operands_it_combines() -> None:
    values, _, by_output, x = _entries(_Combining())
    product, total = by_output[0]["combines"], by_output[1]["combines"]
    assert product["kind"] == "product" and total["kind"] == "sum"
    # The quantized producer by node name, the delegate input as None; each
    # with its largest magnitude in PyTorch's run (x: 0.02 per step).
    for combines in (product, total):
        (qy,) = [o for o in combines["operands"] if o["node"] is not None]
        (dx,) = [o for o in combines["operands"] if o["node"] is None]
        assert values[qy["node"]].dtype == torch.int16
        assert abs(qy["magnitude"] - float(values[qy["node"]].abs().max()) * 0.0008) < 1e-6
        assert abs(dx["magnitude"] - float(x.abs().max()) * 0.02) < 1e-6
    # What one producer step carries at most: 0.0008 of it in the sum's
    # 0.0003 steps; weighted by the input's magnitude in the product's 0.0002.
    assert total["limit"] == 3
    assert product["limit"] == math.ceil(0.0008 * float(x.abs().max()) * 0.02 / 0.0002 - 1e-6)
    # exp is neither a sum nor a product: nothing to carry.
    assert "combines" not in by_output[2]


class _ComputedOnce(torch.nn.Module):
    """A sum whose int16 operand is computed twice in PyTorch's graph, once
    for the sum and once as an output: a lowering keeps one TOSA tensor for
    both (the pattern sweep's matmul patterns)."""

    def forward(self, y: torch.Tensor, x: torch.Tensor):
        qd = torch.ops.quantized_decomposed
        for_sum = qd.quantize_per_tensor.default(y, 0.0008, 0, -32768, 32767, torch.int16)
        as_output = qd.quantize_per_tensor.default(y, 0.0008, 0, -32768, 32767, torch.int16)
        dy = qd.dequantize_per_tensor.default(for_sum, 0.0008, 0, -32768, 32767, torch.int16)
        dx = qd.dequantize_per_tensor.default(x, 0.02, 0, -32768, 32767, torch.int16)
        total = qd.quantize_per_tensor.default(dy + dx, 0.0003, 0, -32768, 32767, torch.int16)
        shifted = qd.quantize_per_tensor.default(y, 0.0008, 1, -32768, 32767, torch.int16)
        return total, as_output, shifted


def test_an_operand_computed_once_is_compared_through_its_equal_kept_tensor() -> None:
    values, entries, by_output, _ = _entries(_ComputedOnce())
    (operand,) = [o for o in by_output[0]["combines"]["operands"] if o["node"] is not None]
    # The sum's own quantize node kept no entry; the output with the same
    # values, scale and zero point stands for it (not the one at another
    # zero point).
    assert operand["node"] == by_output[1]["node"] and operand["equal_to"] not in {e["node"] for e in entries}
    assert torch.equal(values[operand["node"]], values[operand["equal_to"]])
