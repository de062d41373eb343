"""output_tolerance on an edge graph around one delegate whose TOSA graph
(tosa_table_graphs.py) has a 16-bit output through an int16 TABLE, one
beside it and an int8 TABLE's: the program output that passes the first
on through CPU dequantize gets the TABLE's steps; one that a CPU operator
computes from it, and the others, keep one step."""

import operator
import types

import torch

from ethosu_sdk import tosa_tables
from ethosu_sdk.aot import output_tolerance
from ethosu_sdk.tosa_table_graphs import graph_with_tables


# Stand-ins with the names the edge graph's operators carry.
def executorch_call_delegate(*args):  # noqa: ARG001
    raise NotImplementedError


def dequantize_per_tensor(x):  # noqa: ARG001
    raise NotImplementedError


def mul(x):  # noqa: ARG001
    raise NotImplementedError


def _edge(calls: int = 1) -> types.SimpleNamespace:
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    outputs = []
    for _ in range(calls):
        call = graph.call_function(executorch_call_delegate, ("lowered_module", x))
        first, second, third = (graph.call_function(operator.getitem, (call, i)) for i in range(3))
        dequantized = graph.call_function(dequantize_per_tensor, (first,))
        computed = graph.call_function(mul, (first,))
        outputs += [dequantized, second, third, computed]
    graph.output(tuple(outputs))
    program = types.SimpleNamespace(graph_module=types.SimpleNamespace(graph=graph))
    return types.SimpleNamespace(exported_program=lambda: program)


def test_only_the_table_output_passed_on_unchanged_gets_the_allowance() -> None:
    steps = output_tolerance.output_tolerances(_edge(), [graph_with_tables()])
    assert steps == [tosa_tables.TABLE_TOLERANCE_STEPS, 1, 1, 1]


def test_without_a_mapping_every_output_keeps_one_step() -> None:
    assert output_tolerance.output_tolerances(_edge(calls=2), [graph_with_tables()]) == [1] * 8
    assert output_tolerance.output_tolerances(_edge(), []) == []


def test_what_a_16_bit_sum_inherits_is_added_to_the_output_passed_on() -> None:
    # Delegate output 0 (a TABLE's, dequantized on the CPU) and 1 (passed on
    # as is) carry 3 and 5 steps from their operands; output 3 of the
    # program is computed on the CPU from output 0, so it inherits nothing.
    steps = output_tolerance.output_tolerances(_edge(), [graph_with_tables()], [[3, 5, 0]])
    assert steps == [tosa_tables.TABLE_TOLERANCE_STEPS + 3, 1 + 5, 1, 1]
    # A list that does not match the delegate calls is not applied.
    assert output_tolerance.output_tolerances(_edge(), [graph_with_tables()], [[3, 5, 0], [1]]) == [
        tosa_tables.TABLE_TOLERANCE_STEPS,
        1,
        1,
        1,
    ]
