"""Which outputs of a TOSA graph go through a 16-bit TABLE, the one place
where the lowering itself approximates.

TOSA's TABLE on an int16 input is a 513-entry table, linearly interpolated
between entries (the TOSA specification defines it so): ExecuTorch lowers a
16-bit exp, tanh, sigmoid, rsqrt, reciprocal (and the exp inside softmax)
to one, and its result lands a few steps of the output off the function
PyTorch's quantized graph evaluates in float. An 8-bit TABLE is exact (one
entry per input value). The build's lowering check
(verify/lowering_check.py) and the run's comparison (the tensor file's
per-record tolerance, schema/tensor_file.md) hold a 16-bit output computed
through such a table to TABLE_TOLERANCE_STEPS instead of one step (a
32-bit output, which keeps the TABLE's int32 result, to the same share of
its finer steps); everything else keeps one step.

Torch-free: reads the TOSA flatbuffer with the `tosa` package the TOSA
tools install, so both the AOT step and the verification use it.
"""

from __future__ import annotations

from tosa.DType import DType
from tosa.Op import Op
from tosa.TosaGraph import TosaGraph

# A 16-bit output computed through a 16-bit TABLE may be this many steps off
# PyTorch's quantized graph: a sixteenth of an int8 step, the scale the
# lowering check's drift rule already uses for 16-bit tensors
# (lowering_check.WIDE_DRIFT_SCALE). Measured (bench/RESULTS.md): 2 steps
# for tanh, softmax and exp; ExecuTorch's A16W8 layer_norm (106 steps) and a
# missing rescale (5 steps, no TABLE) stay beyond it.
TABLE_TOLERANCE_STEPS = 16
# A 32-bit output that keeps the TABLE's int32 result (ExecuTorch's 32-bit
# sigmoid, test_sigmoid_32bit) is held to the same share of its range: its
# steps are 2^16 times finer than a 16-bit tensor's.
WIDE_STEPS_PER_16_BIT_STEP = {16: 1, 32: 1 << 16}
# What the run and the lowering check print for an output under this rule.
TABLE_RULE = "a 16-bit TABLE's interpolation"


def table_tolerance_steps(bits: int) -> int:
    """The TABLE allowance of a `bits`-wide output (16 or 32), in its steps."""
    return TABLE_TOLERANCE_STEPS * WIDE_STEPS_PER_16_BIT_STEP[bits]


_BITS = {DType.INT16: 16, DType.INT32: 32}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def wide_table_tensors(graph: bytes) -> dict[str, int]:
    """The 16- and 32-bit tensors computed from the result of a TABLE with
    an int16 input, with their width in bits (the operators come in graph
    order, each after its inputs' producers)."""
    root = TosaGraph.GetRootAs(graph, 0)
    after_table: set[str] = set()
    wide: dict[str, int] = {}
    for r in range(root.RegionsLength()):
        for b in range(root.Regions(r).BlocksLength()):
            block = root.Regions(r).Blocks(b)
            types = {}
            for t in range(block.TensorsLength()):
                tensor = block.Tensors(t)
                types[_text(tensor.Name())] = tensor.Type()
            for o in range(block.OperatorsLength()):
                op = block.Operators(o)
                inputs = [_text(op.Inputs(i)) for i in range(op.InputsLength())]
                starts = op.Op() == Op.TABLE and bool(inputs) and types.get(inputs[0]) == DType.INT16
                if starts or any(name in after_table for name in inputs):
                    for i in range(op.OutputsLength()):
                        name = _text(op.Outputs(i))
                        after_table.add(name)
                        if types.get(name) in _BITS:
                            wide[name] = _BITS[types[name]]
    return wide


def table_output_tolerances(graph: bytes) -> list[int]:
    """Per output of the graph's first block, in order: the TABLE allowance
    in its own steps (table_tolerance_steps) for a 16- or 32-bit tensor
    computed through a 16-bit TABLE, else 0."""
    root = TosaGraph.GetRootAs(graph, 0)
    block = root.Regions(0).Blocks(0)
    tables = wide_table_tensors(graph)
    names = [_text(block.Outputs(i)) for i in range(block.OutputsLength())]
    return [table_tolerance_steps(tables[n]) if n in tables else 0 for n in names]
