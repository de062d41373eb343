"""ci_profile reads Bazel's trace format, whole or cut short."""

from __future__ import annotations

import gzip
import json
import pathlib

import ci_profile
import pytest


def _trace(events: list[dict]) -> str:
    # Bazel's layout: a header line, then one event per line.
    lines = ['{"otherData":{},"traceEvents":[']
    lines += [json.dumps(e) + "," for e in events]
    return "\n".join(lines) + "\n]}\n"


def _event(mnemonic: str, label: str, start_s: float, seconds: float) -> dict:
    return {
        "cat": ci_profile.ACTION_CATEGORY,
        "name": f"Testing {label}",
        "ph": "X",
        "ts": int(start_s * 1e6),
        "dur": int(seconds * 1e6),
        "args": {"mnemonic": mnemonic},
    }


EVENTS = [
    _event("TestRunner", "//pkg/a:t", 0.0, 90.0),
    _event("NpuCase", "//sim/tests/npu:c", 30.0, 60.0),
    {"cat": "gc notification", "name": "gc", "ph": "X", "ts": 0, "dur": 5},
]


def test_actions_and_their_packages() -> None:
    found = ci_profile.actions(ci_profile._events(_trace(EVENTS)))
    assert [(a.mnemonic, a.package, a.start_s, a.seconds) for a in found] == [
        ("TestRunner", "pkg/a", 0.0, 90.0),
        ("NpuCase", "sim/tests/npu", 30.0, 60.0),
    ]


def test_busy_per_minute_counts_overlap() -> None:
    found = ci_profile.actions(ci_profile._events(_trace(EVENTS)))
    # Minute 0: the test all minute, the case from 0:30 (half); minute 1:
    # both for the first half.
    assert ci_profile.busy_per_minute(found) == pytest.approx([1.5, 1.0])


def test_a_truncated_gzip_profile_reads_up_to_the_cut(tmp_path: pathlib.Path) -> None:
    whole = gzip.compress(_trace(EVENTS).encode())
    path = tmp_path / "command.profile.gz"
    path.write_bytes(whole[: len(whole) - 12])  # no gzip trailer, as after an interrupt
    text = ci_profile._text(str(path))
    assert len(ci_profile.actions(ci_profile._events(text))) >= 1
