"""Collects the cases of the installed ExecuTorch wheel's own Cortex-M test
suite (executorch/backends/cortex_m/test/{ops,models}/test_*.py) as
(module, inputs) instead of running them.

Each `test_implementation_*` function there is parametrized (ExecuTorch's
`parametrize`, a pytest mark) over `McuTestCase`s: a module and its example
inputs, which ExecuTorch quantizes with CortexMQuantizer, lowers with its
cortex_m passes and runs on a Corstone-300 FVP. The collector imports each
file and reads those marks: per case the module, the inputs and
ExecuTorch's own xfail reason, if any. Nothing is run, nothing is copied
out of the wheel.
"""

from __future__ import annotations

import dataclasses
import glob
import importlib
import os
from typing import Any, Optional

import pytest
import torch

PACKAGES = ("executorch.backends.cortex_m.test.ops", "executorch.backends.cortex_m.test.models")
# The functions that run the serialized program (ExecuTorch's test_dialect_*
# check the graph only).
IMPLEMENTATION = "test_implementation_"
# A file with no implementation case still records (module, inputs) in its
# dialect test's marks (nn_modules, nn_functional, torch_functions,
# silero_vad) or, when ExecuTorch skips the implementation test (lstm), in
# its module-level `test_cases`: the whole set (`collect(dialect=True)`)
# runs those too.
DIALECT = "test_dialect_"
# Seeds torch before each test file's import and each case's inputs, so a
# case is the same exported alone (export_case) or among all (the bench).
SEED = 0


@dataclasses.dataclass
class Case:
    package: str  # "ops" / "models"
    file: str  # "test_add"
    function: str  # "test_implementation_add"
    case_id: str  # the parametrize id
    module: torch.nn.Module
    inputs: tuple[Any, ...]
    xfail: Optional[str]  # ExecuTorch's expected failure for this case, if any
    dialect_only: bool = False  # ExecuTorch checks its graph but never runs it

    @property
    def name(self) -> str:
        return f"{self.package}/{self.file}::{self.function}[{self.case_id}]"


def test_files(package: str) -> list[str]:
    """The module names of `package`'s test files, sorted."""
    directory = os.path.dirname(importlib.import_module(package).__file__ or "")
    return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(directory, "test_*.py")))


def _xfail(marks: Any) -> Optional[str]:
    for mark in marks:
        if mark.name == "xfail":
            return str(mark.kwargs.get("reason") or (mark.args[0] if mark.args else "xfail"))
    return None


def _skip_reason(fn: Any) -> Optional[str]:
    return next(
        (str(m.args[0] if m.args else m.kwargs.get("reason", "skip")) for m in _marks(fn) if m.name == "skip"), None
    )


def _marks(fn: Any) -> list[Any]:
    return list(getattr(fn, "pytestmark", []))


def _parametrized(short: str, file: str, name: str, fn: Any, dialect_only: bool) -> list[Case]:
    cases = []
    for mark in _marks(fn):
        if mark.name != "parametrize":
            continue
        for param in mark.args[1]:
            test_case = param.values[0]
            if hasattr(test_case, "get_example_inputs"):
                torch.manual_seed(SEED)
                inputs = tuple(test_case.get_example_inputs())
                xfail = _xfail(param.marks)
                cases.append(Case(short, file, name, str(param.id), test_case.model, inputs, xfail, dialect_only))
    return cases


def _skipped(short: str, file: str, module: Any, function: str | None) -> list[Case]:
    """The module-level `test_cases` of a file whose implementation test
    ExecuTorch skips, its skip reason as the expected failure."""
    table = getattr(module, "test_cases", None)
    for name, fn in sorted(vars(module).items()):
        reason = _skip_reason(fn) if name.startswith(IMPLEMENTATION) else None
        if reason and isinstance(table, dict) and function in (None, name):
            cases = []
            for key, case in sorted(table.items()):
                torch.manual_seed(SEED)
                inputs = tuple(case.get_example_inputs())
                cases.append(Case(short, file, name, key, case.model, inputs, f"skipped: {reason}", True))
            return cases
    return []


def collect_file(
    package: str, file: str, errors: list[str], function: str | None = None, dialect: bool = False
) -> list[Case]:
    """The cases of one test file (of one function, when given); with
    `dialect`, a file without implementation cases gives its dialect-only ones."""
    try:
        # As ExecuTorch's conftest does before each test module: the weights
        # its module-level cases draw do not depend on what was imported first.
        torch.manual_seed(SEED)
        module = importlib.import_module(f"{package}.{file}")
    except (Exception, pytest.skip.Exception) as e:  # a file that needs what the wheel lacks (ultralytics)
        errors.append(f"{package}.{file}: not importable ({type(e).__name__}: {str(e).splitlines()[0][:100]})")
        return []
    short = package.rsplit(".", 1)[-1]
    functions = [(n, fn) for n, fn in sorted(vars(module).items()) if callable(fn) and function in (None, n)]
    cases = [c for n, fn in functions if n.startswith(IMPLEMENTATION) for c in _parametrized(short, file, n, fn, False)]
    # A case asked for by name may be any kind.
    if cases or not (dialect or function):
        return cases
    dialect_cases = [c for n, fn in functions if n.startswith(DIALECT) for c in _parametrized(short, file, n, fn, True)]
    return dialect_cases or _skipped(short, file, module, function)


def collect(errors: list[str] | None = None, dialect: bool = False) -> list[Case]:
    """Every implementation case of the installed wheel's cortex_m tests;
    with `dialect`, also the cases ExecuTorch only checks the graph of."""
    errors = [] if errors is None else errors
    return [
        case
        for package in PACKAGES
        for file in test_files(package)
        for case in collect_file(package, file, errors, dialect=dialect)
    ]


def export(case: Case, out: str) -> None:
    """Writes `case` as a float torch.export program with its example inputs."""
    program = torch.export.export(case.module.eval(), case.inputs)
    torch.export.save(program, out)
