"""Reads Bazel's `--execution_log_json_file`: SpawnExec messages as JSON
objects one after another (not a JSON array). Used by downstream_test,
remote_cache_test and, as a script, by .ci/run."""

from __future__ import annotations

import json
import pathlib
import sys
from collections import Counter
from typing import Any, Sequence


def spawns(path: pathlib.Path) -> list[dict[str, Any]]:
    text = path.read_text()
    decoder = json.JSONDecoder()
    found = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return found
        spawn, position = decoder.raw_decode(text, position)
        found.append(spawn)


def runners(path: pathlib.Path, mnemonic: str) -> list[str]:
    """The runner of each spawn of `mnemonic` ("worker", "disk cache hit", ...)."""
    return [s.get("runner", "") for s in spawns(path) if s.get("mnemonic") == mnemonic]


def by_runner(path: pathlib.Path) -> Counter[str]:
    """How many spawns each (mnemonic, runner) pair has, keyed "mnemonic: runner"
    ("CppCompile: remote cache hit", "EthosuModel: worker", ...)."""
    return Counter(f"{s.get('mnemonic', '')}: {s.get('runner', '')}" for s in spawns(path))


def outside_workers(path: pathlib.Path, mnemonics: Sequence[str]) -> tuple[Counter[str], list[str]]:
    """(runners of the spawns of `mnemonics`, those that ran neither in a
    worker nor came from a cache, as "mnemonic: runner")."""
    seen: Counter[str] = Counter()
    wrong = []
    for spawn in spawns(path):
        mnemonic = spawn.get("mnemonic", "")
        if mnemonic in mnemonics:
            runner = spawn.get("runner", "")
            seen[runner] += 1
            if runner != "worker" and not spawn.get("cacheHit", False):
                wrong.append(f"{mnemonic}: {runner}")
    return seen, wrong


def main(argv: list[str]) -> int:
    """execution_log.py LOG MNEMONIC...: fails when a spawn of one of these
    mnemonics ran outside a persistent worker without being a cache hit."""
    if len(argv) < 3:
        print(main.__doc__, file=sys.stderr)
        return 2
    seen, wrong = outside_workers(pathlib.Path(argv[1]), argv[2:])
    print(f"{', '.join(argv[2:])} spawns by runner: {dict(seen) or 'none'}")
    for line in wrong:
        print(f"not in a worker: {line}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
