"""Reads Bazel's `--execution_log_json_file`: SpawnExec messages as JSON
objects one after another (not a JSON array)."""

from __future__ import annotations

import json
import pathlib
from typing import Any


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
