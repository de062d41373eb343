"""The table's models and targets, read from cells.bzl (one list, for Bazel
and for the bench): a Starlark list and dict literal are Python literals."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

CELLS_BZL = Path(__file__).with_name("cells.bzl")


def _literals(path: Path) -> dict[str, object]:
    """The top-level `NAME = <literal>` assignments of a .bzl file."""
    found: dict[str, object] = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                found[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue  # not a literal (a call, a comprehension)
    return found


@dataclasses.dataclass(frozen=True)
class Target:
    short: str  # "m4", "u85": the suffix of the cell's Bazel targets
    name: str  # the compile target, "cortex-m4", "ethos-u85-256"
    board: str

    @property
    def npu(self) -> bool:
        return self.name.startswith("ethos-u")


def load(path: Path = CELLS_BZL) -> tuple[list[str], list[Target]]:
    """(models, targets) in the table's order."""
    literals = _literals(path)
    models = list(literals["MODELS"])  # type: ignore[call-overload]
    targets = [Target(short, name, board) for short, (name, board) in literals["TARGETS"].items()]  # type: ignore[attr-defined]
    return models, targets


def cell_name(model: str, target: Target) -> str:
    return f"{model}_{target.short}"
