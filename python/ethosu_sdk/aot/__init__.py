"""Ahead-of-time flow: export, PT2E quantization, lowering, .pte + references.

The names below load their module on first use (PEP 562), so a reader of
the vocabulary alone (`ethosu_sdk.aot.options`: the typed summary) does not
import torch and ExecuTorch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "OUTPUT_SUFFIXES": "compile",
    "HostTools": "compile",
    "compile_model": "compile",
    "output_paths": "compile",
    "CompileOptions": "options",
    "CompileResult": "options",
    "Summary": "options",
    "AotError": "errors",
    "CalibrationError": "errors",
    "ExportError": "errors",
    "InvalidOptionError": "errors",
    "LoweringError": "errors",
    "ModelError": "errors",
    "QuantizationError": "errors",
    "UnknownTargetError": "errors",
    "ALL_TARGETS": "targets",
    "CPU_TARGET": "targets",
    "DEFAULT_MEMORY_CONFIG": "targets",
    "ETHOS_U_TARGETS": "targets",
    "TOSA_TARGETS": "targets",
    "QuantMode": "targets",
    "Target": "targets",
    "TargetKind": "targets",
    "resolve_target": "targets",
}

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


if TYPE_CHECKING:
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
