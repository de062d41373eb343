"""ETDump (ExecuTorch's profile format) from the runner's PROFILE records.

Written with the flatbuffers package, field by field as the schema the
executorch wheel ships declares them (executorch/devtools/etdump/
etdump_schema_flatcc.fbs: table ETDump, RunData, Event, ProfileEvent; file
identifier ED00, size-prefixed as the runtime's ETDumpGen writes it), so
ExecuTorch's devtools Inspector reads it. Times are nanoseconds of the
board's timer: on QEMU (-icount shift=0) one nanosecond is one instruction.

`etdump_main.py` is its command line:

    run_firmware --elf=model.elf | etdump --out=model.etdp
"""

from __future__ import annotations

import dataclasses

import flatbuffers

from ethosu_sdk.runner import protocol

FILE_IDENTIFIER = b"ED00"


@dataclasses.dataclass(frozen=True)
class Profile:
    """A run's PROFILE records and the rate of the timer they count."""

    instructions: list[protocol.ProfileRecord]
    ticks_per_second: int

    def nanoseconds(self, ticks: int) -> int:
        return ticks * 1_000_000_000 // self.ticks_per_second


def from_run(run: protocol.Run) -> Profile | None:
    """The profile of a parsed run; None without PROFILE records (or without
    the TIME record giving their rate)."""
    if not run.profile or not run.ticks_per_second or run.ticks_per_second <= 0:
        return None
    return Profile(run.profile, run.ticks_per_second)


def parse(console: str) -> Profile | None:
    """from_run of a run's console text (protocol.ProtocolError if it is not
    a well-formed run)."""
    return from_run(protocol.parse(console))


@dataclasses.dataclass(frozen=True)
class Operator:
    """One operator's share of a run: its calls and their nanoseconds."""

    name: str
    calls: int
    nanoseconds: int


def by_operator(profile: Profile) -> list[Operator]:
    """The instructions grouped by operator name, the slowest first."""
    calls: dict[str, int] = {}
    ticks: dict[str, int] = {}
    for instruction in profile.instructions:
        calls[instruction.name] = calls.get(instruction.name, 0) + 1
        ticks[instruction.name] = ticks.get(instruction.name, 0) + instruction.ticks
    operators = [Operator(name, calls[name], profile.nanoseconds(ticks[name])) for name in calls]
    return sorted(operators, key=lambda o: (-o.nanoseconds, o.name))


def table(profile: Profile) -> str:
    """by_operator as text: on QEMU (-icount) nanoseconds are instructions."""
    operators = by_operator(profile)
    total = sum(o.nanoseconds for o in operators) or 1
    width = max(len(o.name) for o in operators)
    lines = [f"{'operator':<{width}}  calls  {'ns (QEMU: instructions)':>24}  share"]
    for o in operators:
        lines.append(f"{o.name:<{width}}  {o.calls:5d}  {o.nanoseconds:>24,d}  {100 * o.nanoseconds / total:5.1f}%")
    return "\n".join(lines)


def _profile_event(builder: flatbuffers.Builder, instruction: protocol.ProfileRecord, start: int, end: int) -> int:
    name = builder.CreateString(instruction.name)
    builder.StartObject(8)  # ProfileEvent's 8 fields
    builder.PrependUOffsetTRelativeSlot(0, name, 0)
    builder.PrependInt32Slot(1, 0, -1)  # chain_index: the method's one chain (always written)
    builder.PrependInt32Slot(2, instruction.index, -1)  # instruction_id
    builder.PrependUint64Slot(6, start, 0)  # start_time
    builder.PrependUint64Slot(7, end, 0)  # end_time
    event = builder.EndObject()
    builder.StartObject(3)  # Event: profile_event, allocation_event, debug_event
    builder.PrependUOffsetTRelativeSlot(0, event, 0)
    return int(builder.EndObject())


def _vector(builder: flatbuffers.Builder, offsets: list[int]) -> int:
    builder.StartVector(4, len(offsets), 4)
    for offset in reversed(offsets):
        builder.PrependUOffsetTRelative(offset)
    return int(builder.EndVector())


def write(profile: Profile, method: str = "forward") -> bytes:
    """One run of `method`: a profile event per instruction, back to back
    from time 0, in nanoseconds of the board's timer."""
    builder = flatbuffers.Builder(1024)
    events, ticks = [], 0
    for instruction in profile.instructions:
        start, ticks = profile.nanoseconds(ticks), ticks + instruction.ticks
        events.append(_profile_event(builder, instruction, start, profile.nanoseconds(ticks)))
    events_vector = _vector(builder, events)
    name = builder.CreateString(method)
    builder.StartObject(4)  # RunData: name, bundled_input_index, allocators, events
    builder.PrependUOffsetTRelativeSlot(0, name, 0)
    builder.PrependUOffsetTRelativeSlot(3, events_vector, 0)
    run = builder.EndObject()
    runs = _vector(builder, [run])
    builder.StartObject(2)  # ETDump: version, run_data
    builder.PrependUint32Slot(0, 0, 1)  # version 0, written explicitly
    builder.PrependUOffsetTRelativeSlot(1, runs, 0)
    builder.FinishSizePrefixed(builder.EndObject(), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())
