"""Parser of the runner line protocol (cc/runner/PROTOCOL.md): what the host
runner and every firmware print, on QEMU, an FVP or the build machine."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ethosu_sdk.errors import SdkError

_DTYPES = {
    "uint8": np.uint8,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "float32": np.float32,
    "float64": np.float64,
    "bool": np.bool_,
}
_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class ProtocolError(SdkError, ValueError):
    """The console output is not a well-formed run."""


@dataclasses.dataclass
class Comparison:
    index: int
    passed: bool
    mismatches: int
    rule: str  # exact / rel1e-5 / q<N>step (N: the record's tolerance in steps)
    exact: int  # elements with identical bits


@dataclasses.dataclass(frozen=True)
class ProfileRecord:
    """One PROFILE record: an instruction of the method and the board timer
    ticks it took (PROTOCOL.md, "Profile")."""

    index: int
    ticks: int
    name: str


@dataclasses.dataclass
class Run:
    outputs: dict[int, np.ndarray] = dataclasses.field(default_factory=dict)
    comparisons: list[Comparison] = dataclasses.field(default_factory=list)
    result: str | None = None  # PASS / FAIL / ERROR / DONE
    errors: list[str] = dataclasses.field(default_factory=list)
    ticks: list[int] = dataclasses.field(default_factory=list)  # per iteration
    ticks_per_second: int | None = None
    profile: list[ProfileRecord] = dataclasses.field(default_factory=list)  # in instruction order
    records: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)  # PROGRAM, MEMORY, NPU, ...
    exit_status: int | None = None
    ended: bool = False


def _fields(parts: list[str]) -> tuple[list[str], dict[str, str]]:
    positional = [p for p in parts if "=" not in p]
    named = dict(p.split("=", 1) for p in parts if "=" in p)
    return positional, named


def parse(text: str) -> Run:
    """Reads every ESDK record of `text`; other lines (boot logs) are ignored."""
    run = Run()
    headers: dict[int, tuple[np.dtype, tuple[int, ...], int]] = {}  # dtype, shape, element count
    words: dict[int, list[int]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("ESDK "):
            continue
        parts = line.split()
        try:
            key, rest = parts[1], parts[2:]
            if key == "OUTPUT":
                positional, named = _fields(rest)
                index = int(positional[0])
                shape = () if named["shape"] == "scalar" else tuple(int(d) for d in named["shape"].split("x"))
                if any(d < 0 for d in shape):
                    raise ValueError("negative dimension")
                headers[index] = (np.dtype(_DTYPES[named["dtype"]]), shape, math.prod(shape))
                words[index] = []
            elif key == "DATA":
                index, first = int(rest[0]), int(rest[1])
                if index not in words or first != len(words[index]):
                    raise ProtocolError(f"line {number}: DATA out of order")
                # Each word is the raw bits of one element: out of range is
                # a damaged line, not something numpy should overflow on.
                limit = 1 << (8 * headers[index][0].itemsize)
                values = [int(w, 16) for w in rest[2:]]
                if any(not 0 <= v < limit for v in values):
                    raise ValueError("element out of range")
                words[index] += values
            elif key == "COMPARE":
                positional, named = _fields(rest)
                run.comparisons.append(
                    Comparison(
                        int(positional[0]),
                        positional[1] == "PASS",
                        int(named["mismatches"]),
                        named["rule"],
                        int(named["exact"]),
                    )
                )
            elif key == "TIME":
                _, named = _fields(rest)
                run.ticks.append(int(named["ticks"]))
                run.ticks_per_second = int(named["ticks_per_second"])
            elif key == "PROFILE":
                positional, named = _fields(rest)
                run.profile.append(ProfileRecord(int(positional[0]), int(named["ticks"]), named["name"]))
            elif key == "RESULT":
                run.result = rest[0]
            elif key == "ERROR":
                run.errors.append(" ".join(rest))
            elif key == "END":
                run.ended = True
            elif key == "exit":
                run.exit_status = int(rest[0])
            else:
                run.records[key] = _fields(rest)[1]
        except (IndexError, KeyError, ValueError) as error:
            if isinstance(error, ProtocolError):
                raise
            raise ProtocolError(f"line {number}: malformed record {line!r}") from error
    for index, (dtype, shape, count) in headers.items():
        if len(words[index]) != count:
            raise ProtocolError(f"output {index}: {len(words[index])} elements printed, shape needs {count}")
        raw = np.array(words[index], dtype=_UNSIGNED[dtype.itemsize])
        run.outputs[index] = raw.view(dtype).reshape(shape)
    return run
