"""How many quantization steps each program output may differ from its
expected tensor (the tensor file's per-record tolerance,
schema/tensor_file.md): one, or TABLE_TOLERANCE_STEPS for a 16-bit output
that an Ethos-U delegate's TOSA graph computes through a 16-bit TABLE
(ethosu_sdk/tosa_tables.py says why). The firmware's comparison and the
host's check (runner/model_run.py) read it from the expected file; the
build's lowering check applies the same rule to the delegate's outputs.

A 16-bit delegate output that sums or multiplies quantized operands adds
what operands one step off carry into it (lowering_reference.carry_limit;
the lowering check allows it the same).

A program output is traced back to a delegate output through the operators
that only move, reinterpret or requantize values on the CPU (getitem, the
float I/O's dequantize, views, dim-order copies); any other operator in
between computes something of its own, and the output keeps one step.
"""

from __future__ import annotations

import operator
from typing import Any, Optional, Sequence

import torch

from ethosu_sdk import tosa_tables
from ethosu_sdk.tensors.tensor_file import DEFAULT_TOLERANCE_STEPS

_DELEGATE_CALL = "executorch_call_delegate"
# CPU operators between a delegate and a program output that pass its
# values on unchanged (or requantized to the same parameters).
_PASS_THROUGH = ("quantize_per_tensor", "dequantize_per_tensor", "view", "clone", "dim_order", "alias", "squeeze")


def _name(target: Any) -> str:
    return str(getattr(target, "__name__", None) or target)


def _delegate_output(node: Any) -> Optional[tuple[torch.fx.Node, int]]:
    """(delegate call, its output index) whose value `node` passes on, or None."""
    while isinstance(node, torch.fx.Node) and node.op == "call_function":
        if _DELEGATE_CALL in _name(node.target):
            return node, 0
        source = node.args[0] if node.args else None
        if node.target is operator.getitem and isinstance(source, torch.fx.Node):
            if source.op == "call_function" and _DELEGATE_CALL in _name(source.target):
                return source, int(node.args[1])
            return None
        if not any(part in _name(node.target) for part in _PASS_THROUGH):
            return None
        node = source
    return None


def output_tolerances(
    edge: Any, tosa_graphs: Sequence[bytes], carried: Optional[Sequence[Sequence[int]]] = None
) -> list[int]:
    """Per program output, in order: its tolerance in quantization steps.
    `tosa_graphs`: each Ethos-U delegate's TOSA graph, in call order;
    none (a CPU program): [], every output keeps one step. `carried`: per
    delegate call, per output, the steps a 16-bit sum or product may
    inherit from its operands (lowering_reference.output_carry_limits),
    added to its own."""
    if not tosa_graphs:
        return []
    graph = edge.exported_program().graph_module.graph
    calls = [n for n in graph.nodes if n.op == "call_function" and _DELEGATE_CALL in _name(n.target)]
    outputs = list(next(n for n in graph.nodes if n.op == "output").args[0])
    if len(calls) != len(tosa_graphs):  # no mapping: every output keeps one step
        return [DEFAULT_TOLERANCE_STEPS] * len(outputs)
    tables = {call: tosa_tables.table_output_tolerances(g) for call, g in zip(calls, tosa_graphs)}
    inherited = dict(zip(calls, carried)) if carried is not None and len(carried) == len(calls) else {}
    result = []
    for output in outputs:
        found = _delegate_output(output)
        table = tables[found[0]][found[1]] if found is not None and found[1] < len(tables[found[0]]) else 0
        steps = table or DEFAULT_TOLERANCE_STEPS
        if found is not None and found[1] < len(inherited.get(found[0], ())):
            steps += inherited[found[0]][found[1]]
        result.append(steps)
    return result
