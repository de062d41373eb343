"""Writes a copy of a cortex_m .pte in which the scratch tensor of one
operator's first call claims fewer bytes than ExecuTorch's passes gave it:
a program no lowering writes, for the test of a scratch too small. Only the
tensor's size changes (in place in the flatbuffer); its planned memory stays
as large as it was, so nothing is placed elsewhere.

    shrink_scratch --pte=IN.pte --operator=cortex_m::quantized_conv2d --bytes=16 --out=OUT.pte
"""

from __future__ import annotations

import struct
import sys

import flatbuffers
from absl import app, flags
from executorch_program import program_generated as fb

FLAGS = flags.FLAGS
flags.DEFINE_string("pte", None, "The lowered program.", required=True)
flags.DEFINE_string("operator", "cortex_m::quantized_conv2d", "The operator whose scratch shrinks.")
flags.DEFINE_integer("bytes", None, "The scratch's new size in bytes.", required=True)
flags.DEFINE_string("out", None, "Where to write the edited program.", required=True)

_UINT8 = 0  # ExecuTorch's ScalarType::Byte: the passes' scratch tensors
_SIZES_FIELD = 8  # the vtable offset of Tensor.sizes (program_generated.py)


def _scratch(plan: fb.ExecutionPlan, operator: str) -> fb.Tensor:
    """The uint8 1-D tensor among the first call of `operator`'s arguments."""
    wanted = {i for i in range(plan.OperatorsLength()) if plan.Operators(i).Name().decode() == operator}
    chain = plan.Chains(0)
    for i in range(chain.InstructionsLength()):
        instruction = chain.Instructions(i)
        if instruction.InstrArgsType() != fb.InstructionArguments.KernelCall:
            continue
        call = fb.KernelCall()
        call.Init(instruction.InstrArgs().Bytes, instruction.InstrArgs().Pos)
        if call.OpIndex() not in wanted:
            continue
        for a in range(call.ArgsLength()):
            value = plan.Values(call.Args(a))
            if value.ValType() != fb.KernelTypes.Tensor:
                continue
            tensor = fb.Tensor()
            tensor.Init(value.Val().Bytes, value.Val().Pos)
            if tensor.ScalarType() == _UINT8 and tensor.SizesLength() == 1:
                return tensor
        raise ValueError(f"the first {operator} call has no uint8 scratch tensor")
    raise ValueError(f"no call of {operator} in the program")


def main(argv: list[str]) -> None:
    del argv
    with open(FLAGS.pte, "rb") as f:
        blob = bytearray(f.read())
    try:
        plan = fb.Program.GetRootAs(bytes(blob), 0).ExecutionPlan(0)
        tensor = _scratch(plan, FLAGS.operator)
    except ValueError as e:
        sys.exit(f"shrink_scratch: error: {FLAGS.pte}: {e}")
    if not 0 <= FLAGS.bytes < tensor.Sizes(0):
        sys.exit(f"shrink_scratch: error: --bytes={FLAGS.bytes} must be below the scratch's {tensor.Sizes(0)} bytes")
    sizes = tensor._tab.Offset(_SIZES_FIELD)
    first = tensor._tab.Vector(flatbuffers.number_types.UOffsetTFlags.py_type(sizes))
    struct.pack_into("<i", blob, first, FLAGS.bytes)
    with open(FLAGS.out, "wb") as f:
        f.write(blob)


if __name__ == "__main__":
    app.run(main)
