"""Collects the Ethos-U test cases of the installed ExecuTorch wheel's Arm
backend (executorch/backends/arm/test/ops/test_*.py) as (module, inputs)
instead of running them.

Each test function there builds an `EthosU55PipelineINT`,
`EthosU65PipelineINT` or `EthosU85PipelineINT` from a module, its test data
and its quantization settings, and runs it on an FVP. The collector imports
each file, puts a recorder in place of every pipeline class of that file,
and calls every test function with each of its parametrized cases: the
recorder keeps the Ethos-U pipelines' arguments and runs nothing. Per case
it also keeps the quantization the pipeline's quantizer is given, in the
SDK's terms or why the SDK cannot express it (case_quantization.py), and
ExecuTorch's own xfail marker, except the "no FVP installed" one every
Ethos-U test carries (`XfailIfNoCorstone300/320`).
"""

from __future__ import annotations

import dataclasses
import glob
import importlib
import inspect
import os
import re
import sys
from typing import Any, Callable, Iterator, Optional

import case_quantization
import numpy as np
import pipeline_setup
import torch

OPS_PACKAGE = "executorch.backends.arm.test.ops"
# What a test file's `import conftest` finds under pytest: the Arm test
# directory's conftest.py, which pytest imports under that top-level name.
CONFTEST = "executorch.backends.arm.test.conftest"
ETHOS_U = {"EthosU55PipelineINT": "u55", "EthosU65PipelineINT": "u65", "EthosU85PipelineINT": "u85"}
# The SDK target each NPU's cases compile for: the configurations ExecuTorch's
# own compile specs use for these pipelines (common.get_u55/u85_compile_spec).
TARGETS = {"u55": "ethos-u55-128", "u65": "ethos-u65-256", "u85": "ethos-u85-256"}
QUANTIZATION_SETTINGS = (
    "per_channel_quantization",
    "symmetric_io_quantization",
    "a16w8_quantization",
    "a8w4_quantization",
)
_FVP_ONLY = re.compile(r"Corstone-3[02]0 FVP|executor_runner")
# Ends a collection error line whose case ExecuTorch marks xfail.
XFAIL_MARK = "[ExecuTorch xfail: "


@dataclasses.dataclass(frozen=True)
class CollectError:
    """A case (or a whole test file) that could not be collected."""

    where: str  # "file::function[id]", or "file" when its import failed
    kind: str  # the exception's type, or "import failed"
    message: str  # the exception's first line
    xfail: Optional[str] = None  # ExecuTorch's expected failure for the case

    def __str__(self) -> str:
        line = f"{self.where}: {self.kind}: {self.message}"
        return line + (f" {XFAIL_MARK}{self.xfail}]" if self.xfail else "")


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else ""


@dataclasses.dataclass
class Case:
    file: str  # "test_add"
    function: str  # "test_add_tensor_u85_INT"
    case_id: str  # the parametrize id
    npu: str  # "u55" / "u65" / "u85"
    module: torch.nn.Module
    inputs: tuple[Any, ...]
    quant: case_quantization.Resolved  # the pipeline's quantization, in the SDK's terms
    xfail: Optional[str]  # ExecuTorch's expected failure for this case, if any
    # The test's own calibration samples (one per path through a `cond`'s
    # branches), when it sets them; otherwise the example input calibrates.
    calibration: tuple[tuple[torch.Tensor, ...], ...] = ()

    @property
    def name(self) -> str:
        return f"{self.file}::{self.function}[{self.case_id}]"

    @property
    def settings(self) -> dict[str, bool]:
        """The pipeline's quantization settings (QUANTIZATION_SETTINGS)."""
        return self.quant.settings()

    @property
    def quantize(self) -> str:
        """The SDK's quantization mode (ethosu_model's quantize) of the case."""
        return self.quant.quantize

    @property
    def quantization(self) -> str:
        """The SDK's quantization of the case as one label (`int8`,
        `int8 weights=int4 per_channel=False`, `unexpressible`): the key
        of the suite's targets and of the bench's results."""
        return self.quant.label()

    @property
    def unexpressible(self) -> Optional[str]:
        """Why the SDK cannot run the case with ExecuTorch's quantization."""
        return self.quant.unexpressible


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
    """A pipeline's quantizer: records what a test sets on it after the
    constructor (`set_global(get_symmetric_a8w4_quantization_config())`,
    `set_io(...)`); a config for part of the graph (a module type or name,
    a node) or a replaced quantizer is recorded as a call the SDK cannot
    express, unless a helper function of the test file makes it: the case
    then runs that helper (quantizer_setup, pipeline_setup.py). Anything
    else is ignored, as by _Anything."""

    _PARTIAL = ("set_module_type", "set_module_name", "set_node_target", "set_node_name", "set_node_finder")

    def __init__(self, asked: Optional[case_quantization.Asked]) -> None:
        object.__setattr__(self, "_asked", asked)

    def set_global(self, config: Any) -> "_QuantizerSpy":
        if self._asked:
            self._asked.global_config = config
            if _helper() is not None:
                self._asked.setup_sets_global = True
        return self

    def set_io(self, config: Any) -> "_QuantizerSpy":
        if self._asked:
            self._asked.io_config = config
            if config is None:
                self._asked.others.append("set_io(None): float I/O")
        return self

    def __getattr__(self, name: str) -> Any:
        if name not in self._PARTIAL + ("add_quantizer",):
            return _Anything()

        def partial(*args: Any, **kwargs: Any) -> "_QuantizerSpy":
            if self._asked:
                what = getattr(args[0], "__name__", args[0]) if args and name != "add_quantizer" else ""
                config = args[1] if len(args) > 1 else kwargs.get("quantization_config", "")
                how = "left in float" if config is None else "with a config of its own"
                helper = _helper()
                if helper is None or name == "add_quantizer" or self._asked.setup not in (None, helper):
                    self._asked.others.append(f"{name}({what}) {how}")
                else:
                    self._asked.setup = helper
            return self

        return partial

    def __setattr__(self, name: str, value: Any) -> None:
        if self._asked:
            self._asked.others.append(f"quantizer.{name} replaced")


def _helper() -> Optional[str]:
    """The quantizer_setup reference (pipeline_setup.reference) of the test
    file's helper making the current quantizer call: a module-level function
    of an ops test file, not a test function, taking only the pipeline. None
    when the call comes from the test function itself."""
    frame = inspect.currentframe()
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith(OPS_PACKAGE + "."):
            code = frame.f_code
            function = frame.f_globals.get(code.co_name)
            if getattr(function, "__code__", None) is not code or code.co_name.startswith("test_"):
                return None
            if code.co_argcount != 1:
                return None
            return pipeline_setup.reference(module.rpartition(".")[2], code.co_name)
        frame = frame.f_back
    return None


class _StageSpy(_Anything):
    """A pipeline's stages (`pipeline._stages[pos].args[0]`): records the
    calibration samples a test sets on its quantize stage (test_cond's
    one sample per branch); anything else, as _Anything."""

    def __init__(self, asked: Optional[case_quantization.Asked]) -> None:
        object.__setattr__(self, "_asked", asked)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "calibration_samples" and self._asked is not None:
            self._asked.calibration_samples = tuple(tuple(sample) for sample in value)


_Found = tuple[str, torch.nn.Module, tuple, case_quantization.Asked]


def _recorder(npu: Optional[str], real: Any, found: list[_Found]) -> type:
    """A stand-in for a pipeline class: records the Ethos-U ones' arguments
    and quantization; every method is a no-op and run() stops the test function."""
    signature = inspect.signature(real.__init__) if npu else None

    class Recorder:
        def __class_getitem__(cls, _item: Any) -> type:
            return cls

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.quantizer = _QuantizerSpy(None)
            self._stages = _StageSpy(None)
            if signature is None:
                return
            bound = signature.bind(None, *args, **kwargs)
            bound.apply_defaults()
            values = dict(bound.arguments)
            asked = case_quantization.Asked.of_pipeline(values)
            test_data = values["test_data"]
            inputs = tuple(test_data) if isinstance(test_data, (tuple, list)) else (test_data,)
            found.append((npu, values["module"], inputs, asked))
            self.quantizer = _QuantizerSpy(asked)
            self._stages = _StageSpy(asked)

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


def collect_file(file: str, errors: Optional[list[CollectError]] = None, function: Optional[str] = None) -> list[Case]:
    """Every Ethos-U case of one ops test file, or of one of its test
    functions (errors: what could not be collected, one line each)."""
    errors = errors if errors is not None else []
    try:
        # Outside pytest its option helpers read every option as unset, as a
        # pytest run without options does.
        sys.modules.setdefault("conftest", importlib.import_module(CONFTEST))
        # Many test files draw their data with torch.rand at import, and the
        # generator's state there differs from process to process: a fixed
        # seed makes a case's inputs and weights the same in every export,
        # one case per process or many (export_case.py).
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            module = importlib.import_module(f"{OPS_PACKAGE}.{file}")
    except Exception as e:  # a test file the wheel cannot import here
        errors.append(CollectError(file, "import failed", f"{type(e).__name__}: {_first_line(e)}"))
        return []
    found: list[_Found] = []
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
                    errors.append(CollectError(f"{file}::{name}[{case_id}]", type(e).__name__, _first_line(e), xfail))
                    continue
                for npu, model, inputs, asked in found:
                    quant = case_quantization.resolve(asked)
                    calibration = asked.calibration_samples or ()
                    cases.append(Case(file, name, case_id, npu, model, inputs, quant, xfail, calibration))
    finally:
        for name, value in saved.items():
            setattr(module, name, value)
    return cases


def _source(function: Callable[..., Any]) -> str:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def collect(files: Optional[list[str]] = None, errors: Optional[list[CollectError]] = None) -> list[Case]:
    return [case for file in (files or op_files()) for case in collect_file(file, errors)]


def calibration_file(out: str, index: int) -> str:
    """Where export() writes a case's calibration sample `index`, beside
    its `.pt2` `out` (cases.bzl names the same files)."""
    return f"{out.removesuffix('.pt2')}.calibration{index}.npz"


def export(case: Case, out: str) -> None:
    """Writes `case` as a float torch.export program with its example inputs
    (export_case.py for the sample; the bench's batch runner in-process, so
    both write the same program), and each of its own calibration samples
    as an .npz of the model's inputs (calibration_file)."""
    program = torch.export.export(case.module.eval(), case.inputs)
    torch.export.save(program, out)
    for index, sample in enumerate(case.calibration):
        arrays = {f"input{i}": t.detach().cpu().numpy() for i, t in enumerate(sample)}
        np.savez(calibration_file(out, index), **arrays)
