"""The AOT flow's vocabulary: what a compilation is asked (`CompileOptions`)
and what it returns (`CompileResult`, the typed `Summary`).

A leaf: it imports nothing of `ethosu_sdk.aot`, so every stage may import it.

Each option's field metadata (`option(...)`) is its one spelling: the
aot_compile CLI defines its absl flags from it, and `options_bzl.py`
generates `tools/rules/model_options.bzl`, the attributes `ethosu_model`
takes and writes into the one options file of its compile action. Adding a
plain option is a field here and `tools/bazel run //python/ethosu_sdk/aot:gen_bzl`.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Optional

# JSON values the summary carries as their producers wrote them (Vela's
# figures, the tuner's and the precision search's entries, the evaluation).
Json = Any

FORMAT_VERSION = 1


@dataclasses.dataclass(frozen=True)
class Spec:
    """How one option is spelled outside Python."""

    help: str
    values: tuple[str, ...] = ()  # the allowed values of a string option (an enum flag)
    flag: Optional[str] = None  # the CLI flag's name where it differs from the field's
    rule: bool = True  # an `ethosu_model` attribute (False: the rule gives it as a file or label)
    multi: bool = False  # a repeatable flag (a tuple field)


REQUIRED = dataclasses.MISSING  # an option with no default (a required flag)


def option(default: Any, help: str, **spec: Any) -> Any:
    """A field with its flag / attribute spelling (Spec) as metadata."""
    return dataclasses.field(default=default, metadata={"spec": Spec(help=help, **spec)})


def internal(default: Any) -> Any:
    """A field set by the flow itself (the precision search), never by a user."""
    return dataclasses.field(default=default)


@dataclasses.dataclass(frozen=True)
class CompileOptions:
    model: str = option(
        REQUIRED,
        "Zoo model, package.module:function returning (nn.Module, example input tuple), a Python file "
        "defining ModelUnderTest and ModelInputs (ExecuTorch's convention), or a torch.export.save'd "
        "FILE.pt2 (float).",
        rule=False,
    )
    target: str = option(REQUIRED, "The compile target (targets.py's ALL_TARGETS).", rule=False)
    quantize: str = option(
        "int8",
        "int8: int8 activations, symmetric int8 weights (per channel unless --noper_channel); a16w8: int16 "
        "activations; "
        "none: float (TOSA-1.0+FP and cpu only).",
        values=("int8", "a16w8", "none"),
    )
    seed: int = option(0, "Seed of the model weights and the example input.")
    calibration_dir: Optional[str] = option(
        None,
        "Directory of calibration samples, one file each: .tensors, .npy (one input) or .npz (one array "
        "per input), or any files with --calibration_preprocess (default: the example input).",
        rule=False,
    )
    calibration_files: tuple[str, ...] = option(
        (),
        "A calibration sample file (repeatable; adds to --calibration_dir).",
        flag="calibration_file",
        rule=False,
        multi=True,
    )
    calibration_preprocess: Optional[str] = option(
        None,
        "module:function or FILE.py:function called with each calibration file's path, returning the "
        "model's inputs (e.g. decode and normalise an image; calibration.py).",
    )
    system_config: Optional[str] = option(None, "Vela system config (Ethos-U; default per family, as ExecuTorch).")
    memory_mode: Optional[str] = option(None, "Vela memory mode (Ethos-U; default per family, as ExecuTorch).")
    state_dict: Optional[str] = option(None, "Optional torch.save'd state dict to load into the model.", rule=False)
    intermediates_dir: Optional[str] = option(
        None, "Write TOSA flatbuffers, Vela reports and the delegation table here.", rule=False
    )
    strict_export: bool = option(False, "Use torch.export's strict mode (TorchDynamo tracing).")
    tune: bool = option(
        False,
        "Search the input layout and Vela's options (memory mode, optimisation strategy, arena cache "
        "size) for the lowest total_cycles within --sram_budget_kib; the search goes into the summary.",
    )
    sram_budget_kib: Optional[int] = option(
        None, "With --tune: the SRAM (KiB) the NPU may use on the board (default with --board: the board's SRAM)."
    )
    tune_time_budget_s: float = option(600.0, "With --tune: stop trying configurations after this many seconds.")
    input_layout: str = option(
        "nchw",
        "Memory layout of 4-D (image) inputs: nchw (PyTorch's) or nhwc (channels-last: the program takes "
        "pixels with their channels innermost, and the NPU skips its input transpose).",
        values=("nchw", "nhwc"),
    )
    board: Optional[str] = option(
        None,
        "The board the model will run on (qemu_an547, corstone300, corstone320): compiling fails, naming "
        "the sizes, when Vela's schedule does not fit its memories.",
    )
    verify_dir: Optional[str] = option(
        None,
        "Write the verification's inputs here (ethosu_model runs it as an action of its own: with --verify=off).",
        rule=False,
    )
    lowering_workarounds: bool = option(
        True,
        "Apply the SDK's fixes of ExecuTorch lowering bugs (python/ethosu_sdk/aot/workarounds/lowering_workarounds.py); "
        "--nolowering_workarounds shows what they fix.",
    )
    eval_dir: Optional[str] = option(
        None,
        "Directory of labelled samples, one .npz each (an array 'label', the class index, and one array "
        "per input; python/ethosu_sdk/evaluate/dataset.py): top-1 of the float model, the quantized graph "
        "and the compiled program (needs --host_runner, found in the runfiles under bazel run).",
        flag="eval_data",
        rule=False,
    )
    accuracy_tolerance: Optional[float] = option(
        None,
        "With --eval_data: points of top-1 against the float model the program may lose. Tunes the "
        "precision: int8, 16-bit activations on the layers of worst quantization error, A16W8; keeps the "
        "lowest total_cycles within the tolerance (python/ethosu_sdk/aot/search/precision.py).",
    )
    io: str = option(
        "float",
        "float: the program quantizes its inputs and dequantizes its outputs; int8 (with --quantize=int8): "
        "it takes and returns the quantized tensors, the input quantize and output dequantize folded out "
        "(the scales and zero points are in the summary).",
        values=("float", "int8"),
    )
    weights: str = option(
        "int8",
        "Weights of convolutions and linear layers, with --quantize=int8 on an Ethos-U or TOSA target: int8 "
        "(symmetric), or int4: A8W4, ExecuTorch's get_symmetric_a8w4_quantization_config, symmetric weights "
        "in [-7, 7]; per channel unless --noper_channel.",
        values=("int8", "int4"),
    )
    per_channel: bool = option(
        True,
        "Weights of convolutions and linear layers, with --quantize=int8 or a16w8 on an Ethos-U or TOSA target: "
        "one scale per output channel; --noper_channel: one scale per weight tensor (ExecuTorch's "
        "is_per_channel=False), with --weights=int8 or int4.",
    )
    io_quantization: str = option(
        "operators",
        "How the quantizer (Ethos-U and TOSA targets) annotates the graph's inputs and outputs: operators: "
        "as the operators that read and write them ask; set_io: also with the global config of its own "
        "(ExecuTorch's quantizer.set_io, which its Arm test pipelines call symmetric_io_quantization; int8 "
        "I/O stays affine).",
        values=("operators", "set_io"),
    )
    quantizer_setup: Optional[str] = option(
        None,
        "package.module:function (or module:object.function) called with ExecuTorch's Arm quantizer after the "
        "SDK has configured it (Ethos-U and TOSA targets): per-module configs the other options do not "
        "express, with the quantizer's own API (set_module_type, set_module_name, set_global). With "
        "ethosu_model the module comes from model_deps.",
    )
    # Set by the precision search (precision.py) for each compilation it runs.
    a16w8_modules: tuple[str, ...] = internal(())  # module paths with int16 activations in an int8 compilation
    precision_tuning: Optional[dict] = internal(None)  # the search, recorded in the summary


def option_fields() -> list[tuple[dataclasses.Field, Spec]]:
    """The options a user sets, in declaration order, with their spelling."""
    return [(f, f.metadata["spec"]) for f in dataclasses.fields(CompileOptions) if "spec" in f.metadata]


def from_json_options(text: str) -> dict[str, Any]:
    """The option values of an options file (the rule's), by field name: a
    number the rule could only give as a string converted to the field's type."""
    values = json.loads(text)
    if not isinstance(values, dict):
        raise ValueError("an options file holds one JSON object")
    known = {f.name: f for f, _ in option_fields()}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; options: {', '.join(known)}")
    out: dict[str, Any] = {}
    for name, value in values.items():
        kind = str(known[name].type)
        if isinstance(value, str) and value and "float" in kind:
            value = float(value)
        elif value == "" and kind.startswith("Optional"):
            value = None
        elif isinstance(value, list):
            value = tuple(value)
        out[name] = value
    return out


@dataclasses.dataclass(frozen=True)
class PteFile:
    file: str  # base name, beside the summary
    size_bytes: int
    sha256: str


@dataclasses.dataclass(frozen=True)
class Delegate:
    backend: str
    payload_bytes: int


@dataclasses.dataclass(frozen=True)
class Input:
    shape: list[int]  # PyTorch's sizes
    dim_order: list[int]  # how the program lays them out in memory
    scale: float
    zero_point: int


@dataclasses.dataclass(frozen=True)
class Output:
    name: str  # the dict keys (and indices) of a model returning a dict or nested tuples
    shape: list[int]
    dim_order: list[int]
    scale: float
    zero_point: int


@dataclasses.dataclass(frozen=True)
class Summary:
    """`NAME.summary.json`: built by summary.build, written by `to_json`,
    read back by `from_json` (the CLI, the report and the runner)."""

    model: str
    target: str
    quantize: str
    io: str
    seed: int
    calibration_samples: int
    calibration: Optional[Json]
    input_layout: str
    board: Optional[str]
    system_config: Optional[str]
    memory_mode: Optional[str]
    vela_flags: list[str]
    tuning: Optional[Json]
    a16w8_modules: list[str]
    precision_tuning: Optional[Json]
    vela_workarounds: list[Json]
    lowering_workarounds: list[Json]  # ExecuTorch lowering fixes applied (lowering_workarounds.py)
    fast_scratch_bytes: Optional[int]  # region 2 the firmware must provide (Vela's arena cache); None off Ethos-U
    tosa_spec: Optional[str]
    pte: PteFile
    delegates: list[Delegate]
    fully_delegated: bool
    delegated_operators: dict[str, int]
    cpu_operators: dict[str, int]
    pte_kernel_calls: dict[str, int]
    inputs: list[Input]
    outputs: list[Output]
    vela: list[Json]  # Vela's figures per partition
    vela_total: Json
    accuracy: Optional[Json] = None  # top-1 per stage with --eval_data; the key is absent without
    weights: Optional[str] = None  # "int4" with 4-bit weights; the key is absent for int8
    per_channel: Optional[bool] = None  # False with one scale per weight tensor; the key is absent per channel
    io_quantization: Optional[str] = None  # "set_io" with the quantizer's set_io; the key is absent without
    quantizer_setup: Optional[str] = None  # the function that configured the quantizer; the key is absent without
    format_version: int = FORMAT_VERSION

    def to_dict(self) -> dict[str, Json]:
        summary = dataclasses.asdict(self)
        for absent_when_none in ("accuracy", "weights", "per_channel", "io_quantization", "quantizer_setup"):
            if summary[absent_when_none] is None:
                del summary[absent_when_none]
        return summary

    def to_json(self) -> bytes:
        return (json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n").encode()

    @classmethod
    def from_dict(cls, data: dict[str, Json]) -> "Summary":
        """The one reader of a summary; a key missing or unknown is an error
        (SummaryFormatError) naming it, never a silent default."""
        declared = dataclasses.fields(cls)
        names = {f.name for f in declared}
        required = {f.name for f in declared if f.default is dataclasses.MISSING}
        missing = sorted(required - set(data))
        unknown = sorted(set(data) - names)
        if missing or unknown:
            raise SummaryFormatError(
                f"not a summary of this SDK: missing {', '.join(missing) or 'nothing'}, "
                f"unknown {', '.join(unknown) or 'nothing'}: rebuild the model"
            )
        if data.get("format_version", FORMAT_VERSION) != FORMAT_VERSION:
            raise SummaryFormatError(
                f"summary format {data['format_version']}, this SDK reads {FORMAT_VERSION}: rebuild the model"
            )
        fields = dict(data)
        fields["pte"] = PteFile(**data["pte"])
        fields["delegates"] = [Delegate(**d) for d in data["delegates"]]
        fields["inputs"] = [Input(**i) for i in data["inputs"]]
        fields["outputs"] = [Output(**o) for o in data["outputs"]]
        return cls(**fields)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Summary":
        try:
            data = json.loads(text)
        except ValueError as e:
            raise SummaryFormatError(str(e)) from None
        if not isinstance(data, dict):
            raise SummaryFormatError("summary is not a JSON object")
        try:
            return cls.from_dict(data)
        except TypeError as e:  # a nested record's keys
            raise SummaryFormatError(f"not a summary of this SDK: {e}: rebuild the model") from None

    @classmethod
    def read(cls, path: str) -> "Summary":
        with open(path, "rb") as f:
            return cls.from_json(f.read())


class SummaryFormatError(ValueError):
    """A summary file this SDK did not write (or an older SDK did)."""


@dataclasses.dataclass
class CompileResult:
    paths: dict[str, str]  # suffix -> written path
    summary: Summary  # as written to NAME.summary.json (summary.to_dict())
    timings: dict[str, float]  # seconds: load, export, quantize, lower, total
