"""Where a `bazel test //...` spends its time: a summary of the JSON trace
profile Bazel writes for every command (`<output base>/command.profile.gz`,
or `--profile=FILE`), for the CI-time entries of bench/RESULTS.md.

    tools/bazel run //bench/ci:ci_profile -- \
        --profile=$(tools/bazel info output_base)/command.profile.gz

Prints the action time by mnemonic, the costliest (mnemonic, package)
pairs, the longest actions, and how many actions ran in each minute. The
sum of action time over the machine's cores bounds the wall time from
below when every minute is full; cutting it is what shortens a CI run.

A profile cut short (the command interrupted) is read up to its last
complete event.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import re
import sys
import zlib
from typing import Iterable, Iterator, Sequence

from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("profile", None, "Bazel's JSON trace profile (.gz or plain).", required=True)
flags.DEFINE_integer("top", 15, "Rows in each table.")

# The trace category of one action's execution (Bazel's profiler names it so).
ACTION_CATEGORY = "action processing"
_LABEL = re.compile(r"//([^:\s]*):(\S+)")


@dataclasses.dataclass(frozen=True)
class Action:
    mnemonic: str
    description: str  # Bazel's progress message, e.g. "Testing //pkg:name"
    start_s: float  # from the first event of the profile
    seconds: float

    @property
    def package(self) -> str:
        match = _LABEL.search(self.description)
        return match.group(1) if match else "?"


def _text(path: str) -> str:
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":  # gzip; a stream cut short gives what was written
        raw = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw)
    return raw.decode(errors="replace")


def _events(text: str) -> Iterator[dict]:
    """The trace's complete events. Bazel writes one event per line, so a
    truncated profile still yields every line before the cut."""
    for line in text.splitlines():
        line = line.strip().rstrip(",")
        if line.startswith('{"') and line.endswith("}"):
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            if event.get("ph") == "X":
                yield event


def actions(events: Iterable[dict]) -> list[Action]:
    events = list(events)
    if not events:
        return []
    first = min(e["ts"] for e in events)
    return [
        Action(e.get("args", {}).get("mnemonic", "?"), e.get("name", ""), (e["ts"] - first) / 1e6, e["dur"] / 1e6)
        for e in events
        if e.get("cat") == ACTION_CATEGORY and "dur" in e
    ]


def busy_per_minute(all_actions: Sequence[Action]) -> list[float]:
    """Actions running in each minute (their overlap with it, in minutes)."""
    end = max((a.start_s + a.seconds for a in all_actions), default=0.0)
    busy = [0.0] * (int(end // 60) + 1)
    for a in all_actions:
        t, stop = a.start_s, a.start_s + a.seconds
        while t < stop:
            minute = int(t // 60)
            step = min(stop, (minute + 1) * 60.0) - t
            busy[minute] += step / 60
            t += step
    return busy


def _table(title: str, rows: Iterable[tuple[str, float, int]], top: int) -> None:
    print(f"\n{title}\n{'seconds':>9} {'count':>6}  what")
    for what, seconds, count in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"{seconds:9.0f} {count:6d}  {what}")


def report(all_actions: Sequence[Action], top: int) -> None:
    total = sum(a.seconds for a in all_actions)
    end = max((a.start_s + a.seconds for a in all_actions), default=0.0)
    print(f"{len(all_actions)} actions, {total:,.0f} s of action time; last action ends at {end / 60:.1f} min")
    by_mnemonic: dict[str, list[float]] = collections.defaultdict(list)
    by_package: dict[str, list[float]] = collections.defaultdict(list)
    for a in all_actions:
        by_mnemonic[a.mnemonic].append(a.seconds)
        by_package[f"{a.mnemonic} //{a.package}"].append(a.seconds)
    _table("By mnemonic", ((k, sum(v), len(v)) for k, v in by_mnemonic.items()), top)
    _table("By mnemonic and package", ((k, sum(v), len(v)) for k, v in by_package.items()), top)
    _table("Longest actions", ((f"{a.description[:100]}", a.seconds, 1) for a in all_actions), top)
    print("\nActions running per minute (2.0 = two cores busy all minute)")
    busy = busy_per_minute(all_actions)
    for start in range(0, len(busy), 10):
        print(f"  min {start:3d}-: " + " ".join(f"{b:.1f}" for b in busy[start : start + 10]))


def main(argv: list[str]) -> int:
    del argv
    try:
        text = _text(FLAGS.profile)
    except OSError as e:
        print(f"ci_profile: error: cannot read --profile={FLAGS.profile}: {e.strerror}", file=sys.stderr)
        return 2
    found = actions(_events(text))
    if not found:
        print(
            f"ci_profile: error: {FLAGS.profile} has no action events: give a Bazel JSON trace profile", file=sys.stderr
        )
        return 2
    report(found, FLAGS.top)
    return 0


if __name__ == "__main__":
    app.run(main)
