"""Collects the Ethos-U test cases of the installed ExecuTorch wheel's Arm
backend (executorch/backends/arm/test/ops/test_*.py) as (module, inputs)
instead of running them.

Each test function there builds an `EthosU55PipelineINT`,
`EthosU65PipelineINT` or `EthosU85PipelineINT` from a module, its test data
and its quantization settings, and runs it on an FVP. The collector imports
each file, puts a recorder in place of every pipeline class of that file,
and calls every test function with each of its parametrized cases: the
recorder keeps the Ethos-U pipelines' arguments and runs nothing. Per case
it also keeps ExecuTorch's own xfail marker, except the "no FVP installed"
one every Ethos-U test carries (`XfailIfNoCorstone300/320`).
"""

from __future__ import annotations

import dataclasses
import glob
import importlib
import inspect
import os
import re
from typing import Any, Callable, Iterator, Optional

import torch

OPS_PACKAGE = "executorch.backends.arm.test.ops"
ETHOS_U = {"EthosU55PipelineINT": "u55", "EthosU65PipelineINT": "u65", "EthosU85PipelineINT": "u85"}
# The SDK target each NPU's cases compile for: the configurations ExecuTorch's
# own compile specs use for these pipelines (common.get_u55/u85_compile_spec).
TARGETS = {"u55": "ethos-u55-128", "u65": "ethos-u65-256", "u85": "ethos-u85-256"}
QUANTIZATION_SETTINGS = ("per_channel_quantization", "symmetric_io_quantization", "a16w8_quantization")
_FVP_ONLY = re.compile(r"Corstone-3[02]0 FVP|executor_runner")


@dataclasses.dataclass
class Case:
    file: str  # "test_add"
    function: str  # "test_add_tensor_u85_INT"
    case_id: str  # the parametrize id
    npu: str  # "u55" / "u65" / "u85"
    module: torch.nn.Module
    inputs: tuple[Any, ...]
    settings: dict[str, Any]  # the pipeline's quantization settings
    xfail: Optional[str]  # ExecuTorch's expected failure for this case, if any

    @property
    def name(self) -> str:
        return f"{self.file}::{self.function}[{self.case_id}]"

    @property
    def quantize(self) -> str:
        """The SDK's quantization mode for the case's settings."""
        return "a16w8" if self.settings.get("a16w8_quantization") else "int8"


class _Stop(Exception):
    """Raised by a recorder's run(): nothing after it matters."""


class _Anything:
    """Whatever a test does to a pipeline besides building and running it
    (adding or changing stages): accepted and ignored."""

    def __getattr__(self, _name: str) -> "_Anything":
        return self

    def __call__(self, *args: Any, **kwargs: Any) -> "_Anything":
        return self

    def __getitem__(self, _key: Any) -> "_Anything":
        return self


class _QuantizerSpy(_Anything):
    """A pipeline's quantizer: a test that sets a 16-bit activation config on
    it (`set_global(get_symmetric_a16w8_quantization_config())`) is an A16W8
    case, whatever the constructor said."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self._settings = settings

    def set_global(self, config: Any) -> "_QuantizerSpy":
        activation = getattr(config, "input_activation", None) or getattr(config, "output_activation", None)
        if getattr(activation, "dtype", None) == torch.int16:
            self._settings["a16w8_quantization"] = True
        return self


def _recorder(npu: Optional[str], real: Any, found: list[tuple[str, torch.nn.Module, tuple, dict]]) -> type:
    """A stand-in for a pipeline class: records the Ethos-U ones' arguments;
    every method is a no-op and run() stops the test function."""
    signature = inspect.signature(real.__init__) if npu else None

    class Recorder:
        def __class_getitem__(cls, _item: Any) -> type:
            return cls

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.quantizer = _QuantizerSpy({})
            if signature is None:
                return
            bound = signature.bind(None, *args, **kwargs)
            bound.apply_defaults()
            values = dict(bound.arguments)
            settings = {k: values[k] for k in QUANTIZATION_SETTINGS if k in values}
            test_data = values["test_data"]
            inputs = tuple(test_data) if isinstance(test_data, (tuple, list)) else (test_data,)
            found.append((npu, values["module"], inputs, settings))
            self.quantizer = _QuantizerSpy(settings)

        def run(self) -> None:
            raise _Stop()

        def __getattr__(self, _name: str) -> Any:
            return _Anything()

    return Recorder


def _xfail_reason(marks: Any) -> Optional[str]:
    for mark in marks or ():
        if mark.name == "xfail":
            reason = str(mark.kwargs.get("reason", "") or (mark.args[1] if len(mark.args) > 1 else "xfail"))
            if not _FVP_ONLY.search(reason):
                return reason
    return None


def _parameters(function: Callable[..., Any]) -> Iterator[tuple[str, tuple[Any, ...], Optional[str]]]:
    """(id, argument values, xfail reason) of each parametrized case: its
    own marker, else the test function's (`@pytest.mark.xfail` above it)."""
    marks = getattr(function, "pytestmark", [])
    whole_function = _xfail_reason(marks)
    for mark in marks:
        if mark.name != "parametrize":
            continue
        for index, param in enumerate(mark.args[1]):
            values = getattr(param, "values", (param,))
            case_id = getattr(param, "id", None) or str(index)
            yield case_id, tuple(values), _xfail_reason(getattr(param, "marks", ())) or whole_function


def op_files() -> list[str]:
    package = importlib.import_module(OPS_PACKAGE)
    directory = list(package.__path__)[0]  # a namespace package: no __init__.py
    return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(directory, "test_*.py")))


def collect_file(file: str, errors: Optional[list[str]] = None, function: Optional[str] = None) -> list[Case]:
    """Every Ethos-U case of one ops test file, or of one of its test
    functions (errors: what could not be collected, one line each)."""
    errors = errors if errors is not None else []
    try:
        # Many test files draw their data with torch.rand at import, and the
        # generator's state there differs from process to process: a fixed
        # seed makes a case's inputs and weights the same in every export,
        # one case per process or many (export_case.py).
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            module = importlib.import_module(f"{OPS_PACKAGE}.{file}")
    except Exception as e:  # a test file the wheel cannot import here
        errors.append(f"{file}: import failed: {type(e).__name__}: {e}")
        return []
    found: list[tuple[str, torch.nn.Module, tuple, dict]] = []
    saved = {}
    for name, value in list(vars(module).items()):
        if (
            isinstance(value, type)
            and name.endswith(tuple(["Pipeline", "PipelineINT", "PipelineFP"]))
            or name in ETHOS_U
        ):
            saved[name] = value
            setattr(module, name, _recorder(ETHOS_U.get(name), value, found))
    cases: list[Case] = []
    try:
        for name, test in sorted(vars(module).items()):
            if function is not None and name != function:
                continue
            if not (name.startswith("test_") and callable(test)) or "Ethos" not in _source(test):
                continue
            for case_id, values, xfail in _parameters(test):
                found.clear()
                try:
                    with torch.random.fork_rng(devices=[]):
                        torch.manual_seed(0)
                        test(*values)
                except _Stop:
                    pass
                except Exception as e:  # the case's own set-up failed
                    errors.append(f"{file}::{name}[{case_id}]: {type(e).__name__}: {e}")
                    continue
                for npu, model, inputs, settings in found:
                    cases.append(Case(file, name, case_id, npu, model, inputs, settings, xfail))
    finally:
        for name, value in saved.items():
            setattr(module, name, value)
    return cases


def _source(function: Callable[..., Any]) -> str:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def collect(files: Optional[list[str]] = None, errors: Optional[list[str]] = None) -> list[Case]:
    return [case for file in (files or op_files()) for case in collect_file(file, errors)]


def export(case: Case, out: str) -> None:
    """Writes `case` as a float torch.export program with its example inputs
    (export_case.py for the sample; the bench's batch runner in-process, so
    both write the same program)."""
    program = torch.export.export(case.module.eval(), case.inputs)
    torch.export.save(program, out)
