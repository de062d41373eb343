"""Reads a `.pte` file with the flatc code generated from executorch's schema.

The layout facts (file identifier at bytes 4..8, the `eh00` extended header
at offset 8 giving the flatbuffer size and the base offset of the data
segments that hold delegate payloads and constants) come from the installed
executorch package's serializer. Every offset read from the file is checked
against its size.
"""

from __future__ import annotations

import collections
import dataclasses
import struct
from typing import Optional

from executorch_program import program_generated as fb

from ethosu_sdk.errors import SdkError

FILE_IDENTIFIER_OFFSET = 4
_EXTENDED_HEADER = struct.Struct("<4sIQQ")  # magic, length, program size, segment base
_EXTENDED_HEADER_MAGIC = b"eh00"


class PteError(SdkError, ValueError):
    """The file is not a well-formed ExecuTorch program."""


@dataclasses.dataclass(frozen=True)
class Delegate:
    """One backend delegate of an execution plan."""

    id: str  # backend id, e.g. "EthosUBackend", "TOSABackend"
    location: str  # "inline" or "segment"
    payload_size: int
    payload_offset: int  # absolute file offset of a segment payload; -1 when inline
    compile_specs: dict[str, bytes]


@dataclasses.dataclass(frozen=True)
class TensorInfo:
    scalar_type: int
    sizes: tuple[int, ...]
    # The order of the dimensions in memory, outermost first (0..R-1 when
    # the .pte lists none); a channels-last image's is (0, 2, 3, 1).
    dim_order: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class ExecutionPlan:
    name: str
    operators: tuple[str, ...]  # "name.overload", in the plan's operator table order
    delegates: tuple[Delegate, ...]
    inputs: tuple[TensorInfo, ...]
    outputs: tuple[TensorInfo, ...]
    kernel_calls: dict[str, int]  # operator -> number of KernelCall instructions
    delegate_calls: int
    instruction_count: int
    non_const_buffer_sizes: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class PteProgram:
    file_identifier: str
    version: int
    file_size: int
    program_size: int
    segment_base_offset: int
    segments: tuple[tuple[int, int], ...]  # (absolute offset, size)
    plans: tuple[ExecutionPlan, ...]

    def plan(self, name: str = "forward") -> ExecutionPlan:
        for p in self.plans:
            if p.name == name:
                return p
        raise KeyError(f"no execution plan {name!r}; plans: {[p.name for p in self.plans]}")


def _text(value: Optional[bytes]) -> str:
    return value.decode("utf-8") if value is not None else ""


def _segment_range(program: "fb.Program", index: int, base: int, file_size: int) -> tuple[int, int]:
    if not 0 <= index < program.SegmentsLength():
        raise PteError(f"segment index {index} out of range ({program.SegmentsLength()} segments)")
    segment = program.Segments(index)
    start, size = base + segment.Offset(), segment.Size()
    if start + size > file_size:
        raise PteError(f"segment {index} [{start}, {start + size}) runs past the file ({file_size} bytes)")
    return start, size


def _tensor_info(plan: "fb.ExecutionPlan", value_index: int) -> TensorInfo:
    if not 0 <= value_index < plan.ValuesLength():
        raise PteError(f"value index {value_index} out of range")
    value = plan.Values(value_index)
    if value.ValType() != fb.KernelTypes.Tensor:
        return TensorInfo(scalar_type=-1, sizes=())
    tensor = fb.Tensor()
    table = value.Val()
    tensor.Init(table.Bytes, table.Pos)
    sizes = tuple(int(tensor.Sizes(i)) for i in range(tensor.SizesLength()))
    dim_order = tuple(int(tensor.DimOrder(i)) for i in range(tensor.DimOrderLength()))
    if dim_order and sorted(dim_order) != list(range(len(sizes))):
        raise PteError(f"tensor dim order {list(dim_order)} is not a permutation of its {len(sizes)} dimensions")
    return TensorInfo(tensor.ScalarType(), sizes, dim_order or tuple(range(len(sizes))))


def _read_plan(program: "fb.Program", plan: "fb.ExecutionPlan", blob: bytes, base: int) -> ExecutionPlan:
    operators = []
    for i in range(plan.OperatorsLength()):
        op = plan.Operators(i)
        name, overload = _text(op.Name()), _text(op.Overload())
        operators.append(f"{name}.{overload}" if overload else name)

    delegates = []
    for i in range(plan.DelegatesLength()):
        d = plan.Delegates(i)
        ref = d.Processed()
        if ref is None:
            raise PteError(f"delegate {i} has no processed data")
        specs = {}
        for j in range(d.CompileSpecsLength()):
            spec = d.CompileSpecs(j)
            specs[_text(spec.Key())] = bytes(spec.ValueAsNumpy().tobytes()) if not spec.ValueIsNone() else b""
        if ref.Location() == fb.DataLocation.INLINE:
            index = ref.Index()
            if not 0 <= index < program.BackendDelegateDataLength():
                raise PteError(f"delegate {i}: inline data index {index} out of range")
            data = program.BackendDelegateData(index)
            delegates.append(Delegate(_text(d.Id()), "inline", data.DataLength(), -1, specs))
        else:
            start, size = _segment_range(program, ref.Index(), base, len(blob))
            delegates.append(Delegate(_text(d.Id()), "segment", size, start, specs))

    kernel_calls: collections.Counter[str] = collections.Counter()
    delegate_calls = 0
    instructions = 0
    for c in range(plan.ChainsLength()):
        chain = plan.Chains(c)
        for k in range(chain.InstructionsLength()):
            instruction = chain.Instructions(k)
            instructions += 1
            kind = instruction.InstrArgsType()
            if kind == fb.InstructionArguments.KernelCall:
                call = fb.KernelCall()
                table = instruction.InstrArgs()
                call.Init(table.Bytes, table.Pos)
                if not 0 <= call.OpIndex() < len(operators):
                    raise PteError(f"kernel call to operator {call.OpIndex()} out of range")
                kernel_calls[operators[call.OpIndex()]] += 1
            elif kind == fb.InstructionArguments.DelegateCall:
                call = fb.DelegateCall()
                table = instruction.InstrArgs()
                call.Init(table.Bytes, table.Pos)
                if not 0 <= call.DelegateIndex() < len(delegates):
                    raise PteError(f"delegate call to delegate {call.DelegateIndex()} out of range")
                delegate_calls += 1

    return ExecutionPlan(
        name=_text(plan.Name()),
        operators=tuple(operators),
        delegates=tuple(delegates),
        inputs=tuple(_tensor_info(plan, int(plan.Inputs(i))) for i in range(plan.InputsLength())),
        outputs=tuple(_tensor_info(plan, int(plan.Outputs(i))) for i in range(plan.OutputsLength())),
        kernel_calls=dict(sorted(kernel_calls.items())),
        delegate_calls=delegate_calls,
        instruction_count=instructions,
        non_const_buffer_sizes=tuple(int(plan.NonConstBufferSizes(i)) for i in range(plan.NonConstBufferSizesLength())),
    )


def parse_pte(blob: bytes) -> PteProgram:
    """Parses the bytes of a `.pte` file."""
    if len(blob) < 8 + _EXTENDED_HEADER.size:
        raise PteError(f"{len(blob)} bytes is too short for a .pte")
    identifier = blob[FILE_IDENTIFIER_OFFSET : FILE_IDENTIFIER_OFFSET + 4]
    if not identifier.startswith(b"ET"):
        raise PteError(f"file identifier {identifier!r} is not an ExecuTorch program's (ET..)")
    program_size, base = len(blob), 0
    magic, length, size, segment_base = _EXTENDED_HEADER.unpack_from(blob, 8)
    if magic == _EXTENDED_HEADER_MAGIC:
        if length < _EXTENDED_HEADER.size:
            raise PteError(f"extended header length {length} < {_EXTENDED_HEADER.size}")
        if size > len(blob) or segment_base > len(blob):
            raise PteError(f"extended header sizes ({size}, {segment_base}) exceed the file ({len(blob)} bytes)")
        program_size, base = size, segment_base
    try:
        program = fb.Program.GetRootAs(blob[:program_size], 0)
        plans = tuple(
            _read_plan(program, program.ExecutionPlan(i), blob, base) for i in range(program.ExecutionPlanLength())
        )
        segments = tuple(_segment_range(program, i, base, len(blob)) for i in range(program.SegmentsLength()))
        version = program.Version()
    except PteError:
        raise
    except Exception as e:  # flatbuffers raises struct/index errors on corrupt data
        raise PteError(f"corrupt program flatbuffer: {type(e).__name__}: {e}") from e
    return PteProgram(
        file_identifier=identifier.decode("ascii", "replace"),
        version=version,
        file_size=len(blob),
        program_size=program_size,
        segment_base_offset=base,
        segments=segments,
        plans=plans,
    )


def read_pte(path: str) -> PteProgram:
    with open(path, "rb") as f:
        return parse_pte(f.read())


def delegate_payload(blob: bytes, program: PteProgram, plan: str = "forward", index: int = 0) -> bytes:
    """Returns the processed bytes of a delegate (segment-stored or inline)."""
    delegate = program.plan(plan).delegates[index]
    if delegate.location == "segment":
        return blob[delegate.payload_offset : delegate.payload_offset + delegate.payload_size]
    raw = fb.Program.GetRootAs(blob[: program.program_size], 0)
    fb_plan = next(
        raw.ExecutionPlan(i) for i in range(raw.ExecutionPlanLength()) if _text(raw.ExecutionPlan(i).Name()) == plan
    )
    data = raw.BackendDelegateData(fb_plan.Delegates(index).Processed().Index())
    return data.DataAsNumpy().tobytes()
