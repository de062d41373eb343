"""Ahead-of-time flow: export, PT2E quantization, lowering, .pte + references."""

from ethosu_sdk.aot.compile import OUTPUT_SUFFIXES, HostTools, compile_model, output_paths
from ethosu_sdk.aot.errors import (
    AotError,
    CalibrationError,
    ExportError,
    InvalidOptionError,
    LoweringError,
    ModelError,
    QuantizationError,
    UnknownTargetError,
)
from ethosu_sdk.aot.options import CompileOptions, CompileResult, Summary
from ethosu_sdk.aot.targets import (
    ALL_TARGETS,
    CPU_TARGET,
    DEFAULT_MEMORY_CONFIG,
    ETHOS_U_TARGETS,
    TOSA_TARGETS,
    QuantMode,
    Target,
    TargetKind,
    resolve_target,
)

__all__ = [
    "ALL_TARGETS",
    "AotError",
    "CPU_TARGET",
    "CalibrationError",
    "CompileOptions",
    "CompileResult",
    "DEFAULT_MEMORY_CONFIG",
    "ETHOS_U_TARGETS",
    "ExportError",
    "HostTools",
    "InvalidOptionError",
    "LoweringError",
    "ModelError",
    "OUTPUT_SUFFIXES",
    "QuantMode",
    "QuantizationError",
    "Summary",
    "TOSA_TARGETS",
    "Target",
    "TargetKind",
    "UnknownTargetError",
    "compile_model",
    "output_paths",
    "resolve_target",
]
