"""Property-based fuzzing of the host-side console protocol parser
(python/ethosu_sdk/runner/protocol.py) with Hypothesis.

Whatever a firmware, QEMU or a fault prints, parse() returns a Run or raises
ProtocolError: any other exception would end a user's run in a traceback.
Inputs: protocol_regressions/ (past findings), the real transcripts in
protocol_corpus/ mutated line- and token-wise, arbitrary text, and
well-formed outputs of every dtype that must come back bit for bit.

Examples per test: PROTOCOL_FUZZ_EXAMPLES (default 300, a smoke run with a
fixed seed); PROTOCOL_FUZZ_RANDOM=1 draws a new seed each run (long runs).
"""

from __future__ import annotations

import os
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ethosu_sdk.runner import protocol

_CORPUS = sorted((pathlib.Path(__file__).parent / "protocol_corpus").glob("*.txt"))
_SEEDS = [path.read_text() for path in _CORPUS]
# Inputs of past findings: each raised something other than ProtocolError
# (IndexError, ValueError from reshape, OverflowError from numpy).
_REGRESSIONS = sorted((pathlib.Path(__file__).parent / "protocol_regressions").glob("*.txt"))

settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("PROTOCOL_FUZZ_EXAMPLES", "300")),
    derandomize=os.environ.get("PROTOCOL_FUZZ_RANDOM") != "1",
    deadline=None,  # a loaded 2-core machine: timing says nothing here
    database=None,  # the runfiles tree is read-only
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("fuzz")

# Tokens that parsers get wrong: signs, huge and empty numbers, separators,
# every dtype and record name, bad hex.
_TOKENS = st.sampled_from(
    [
        "",
        "0",
        "-1",
        "1",
        "16",
        "-16",
        "99999999999999999999",
        "0x10",
        "ff",
        "-ff",
        "100",
        "fffffffff",
        "nan",
        "=",
        "==",
        "x",
        "0x0",
        "1x-1",
        "-1x-2",
        "scalar",
        "shape=",
        "shape=x",
        "dtype=",
        "numel=",
        "mismatches=",
        "rule=",
        "exact=",
        "ticks=",
        "ticks_per_second=0",
        "uint8",
        "int8",
        "int16",
        "int32",
        "int64",
        "float32",
        "float64",
        "bool",
        "complex64",
        "OUTPUT",
        "DATA",
        "COMPARE",
        "TIME",
        "PROFILE",
        "name=",
        "RESULT",
        "ERROR",
        "END",
        "BEGIN",
        "exit",
        "PASS",
        "FAIL",
        "\t",
        "\u00e9",
        "ESDK",
    ]
)
_WORD = st.one_of(_TOKENS, st.text(max_size=12))


@st.composite
def _mutated_transcript(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(_SEEDS)).splitlines()
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "token", "truncate", "insert"]))
        if not lines:
            lines.append("ESDK " + " ".join(draw(st.lists(_WORD, max_size=6))))
            continue
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "token":
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words) - 1))
            word = draw(_WORD)
            # Replace a whole field or only a name=value field's value.
            if "=" in words[k] and draw(st.booleans()):
                word = words[k].split("=", 1)[0] + "=" + word
            words[k] = word
            lines[i] = " ".join(words)
        elif op == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        else:
            lines.insert(i, "ESDK " + " ".join(draw(st.lists(_WORD, max_size=6))))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


def _parses_or_refuses(text: str) -> None:
    try:
        run = protocol.parse(text)
    except protocol.ProtocolError:
        return
    assert isinstance(run, protocol.Run)


def test_seeds_parse() -> None:
    assert len(_SEEDS) >= 4
    for path, seed in zip(_CORPUS, _SEEDS):
        run = protocol.parse(seed)
        assert run.ended, path.name
        assert run.result in ("PASS", "ERROR"), path.name


@pytest.mark.parametrize("path", _REGRESSIONS, ids=lambda path: path.stem)
def test_regressions(path: pathlib.Path) -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol.parse(path.read_text())


@given(_mutated_transcript())
def test_mutated_transcripts(text: str) -> None:
    _parses_or_refuses(text)


@given(st.text(max_size=400))
def test_arbitrary_text(text: str) -> None:
    _parses_or_refuses(text)


@given(st.lists(st.lists(_WORD, max_size=8).map(lambda words: "ESDK " + " ".join(words)), max_size=12))
def test_arbitrary_records(lines: list[str]) -> None:
    _parses_or_refuses("\n".join(lines))


_DTYPE_NAMES = {
    np.dtype(np.uint8): "uint8",
    np.dtype(np.int8): "int8",
    np.dtype(np.int16): "int16",
    np.dtype(np.int32): "int32",
    np.dtype(np.int64): "int64",
    np.dtype(np.float32): "float32",
    np.dtype(np.float64): "float64",
    np.dtype(np.bool_): "bool",
}


def _print_output(index: int, array: np.ndarray) -> list[str]:
    """What protocol.cc prints for one output (cc/runner/PROTOCOL.md)."""
    shape = "x".join(str(d) for d in array.shape) if array.ndim else "scalar"
    lines = [f"ESDK OUTPUT {index} dtype={_DTYPE_NAMES[array.dtype]} shape={shape} numel={array.size}"]
    unsigned = array.reshape(-1).view(f"u{array.dtype.itemsize}")
    for first in range(0, array.size, 16):
        words = " ".join(f"{int(w):0{2 * array.dtype.itemsize}x}" for w in unsigned[first : first + 16])
        lines.append(f"ESDK DATA {index} {first} {words}")
    return lines


@given(
    st.lists(
        st.sampled_from(list(_DTYPE_NAMES)).flatmap(
            lambda dtype: hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
        ),
        min_size=1,
        max_size=3,
    )
)
def test_outputs_round_trip(arrays: list[np.ndarray]) -> None:
    lines = ["ESDK BEGIN method=forward inputs=1 outputs=%d" % len(arrays)]
    for index, array in enumerate(arrays):
        lines += _print_output(index, array)
    lines += ["ESDK RESULT DONE", "ESDK END"]
    run = protocol.parse("\n".join(lines))
    for index, array in enumerate(arrays):
        got = run.outputs[index]
        assert got.dtype == array.dtype and got.shape == array.shape
        assert got.tobytes() == array.tobytes()  # bit for bit, NaNs included


def test_profile_records_come_back_in_instruction_order() -> None:
    """A host runner's transcript (protocol_corpus/float_profiled.txt): one
    PROFILE record per instruction of the MLP, beside its TIME and COMPARE."""
    path = pathlib.Path(__file__).parent / "protocol_corpus" / "float_profiled.txt"
    text = path.read_text()
    run = protocol.parse(text)
    lines = [line.split() for line in text.splitlines() if line.startswith("ESDK PROFILE ")]
    assert [r.index for r in run.profile] == list(range(len(lines))) and len(lines) == 9
    assert [(str(r.ticks), r.name) for r in run.profile] == [
        (w[3].removeprefix("ticks="), w[4].removeprefix("name=")) for w in lines
    ]
    assert "PROFILE" not in run.records and run.result == "PASS"


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__]))
