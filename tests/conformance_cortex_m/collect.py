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


@dataclasses.dataclass
class Case:
    package: str  # "ops" / "models"
    file: str  # "test_add"
    function: str  # "test_implementation_add"
    case_id: str  # the parametrize id
    module: torch.nn.Module
    inputs: tuple[Any, ...]
    xfail: Optional[str]  # ExecuTorch's expected failure for this case, if any

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


def collect_file(package: str, file: str, errors: list[str], function: str | None = None) -> list[Case]:
    """The cases of one test file (of one function, when given)."""
    try:
        module = importlib.import_module(f"{package}.{file}")
    except (Exception, pytest.skip.Exception) as e:  # a file that needs what the wheel lacks (ultralytics)
        errors.append(f"{package}.{file}: not importable ({type(e).__name__}: {str(e).splitlines()[0][:100]})")
        return []
    cases = []
    short = package.rsplit(".", 1)[-1]
    for name, fn in sorted(vars(module).items()):
        if not name.startswith(IMPLEMENTATION) or not callable(fn) or (function and name != function):
            continue
        for mark in getattr(fn, "pytestmark", []):
            if mark.name != "parametrize":
                continue
            for param in mark.args[1]:
                test_case = param.values[0]
                if not hasattr(test_case, "get_example_inputs"):
                    continue
                cases.append(
                    Case(
                        short,
                        file,
                        name,
                        str(param.id),
                        test_case.model,
                        tuple(test_case.get_example_inputs()),
                        _xfail(param.marks),
                    )
                )
    return cases


def collect(errors: list[str] | None = None) -> list[Case]:
    """Every implementation case of the installed wheel's cortex_m tests."""
    errors = [] if errors is None else errors
    return [
        case for package in PACKAGES for file in test_files(package) for case in collect_file(package, file, errors)
    ]


def export(case: Case, out: str) -> None:
    """Writes `case` as a float torch.export program with its example inputs."""
    program = torch.export.export(case.module.eval(), case.inputs)
    torch.export.save(program, out)
