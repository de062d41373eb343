"""The tuner's configuration space and how one configuration reads, in one
torch-free module: the search (aot/search/tuner.py) builds and compiles
configurations, the report and the CLIs (report/tuning.py) describe them,
and neither owns a copy of the other's names."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Optional

KIB = 1024

# Memory modes of Vela's built-in configuration (Arm/vela.ini) a family can
# run, in tie-break order: everything in SRAM, then the tensor arena in SRAM
# with read-only data in flash, then SRAM as a cache in front of DRAM (U55
# has no dedicated SRAM port). The named 384 KB cache comes before a cache
# size of our own, so an equal schedule ships with no extra Vela flag.
MEMORY_MODES = {
    "ethos-u55": ("Sram_Only", "Shared_Sram"),
    "ethos-u65": ("Sram_Only", "Shared_Sram", "Dedicated_Sram_384KB", "Dedicated_Sram"),
    "ethos-u85": ("Sram_Only", "Shared_Sram", "Dedicated_Sram_384KB", "Dedicated_Sram"),
}
STRATEGIES = ("Performance", "Size")
DEFAULT_STRATEGY = "Performance"  # Vela's; left unsaid in flags and descriptions
# Arena cache sizes tried with Dedicated_Sram: the budget down to half of it,
# in eighths. Vela's schedule is not monotonic in the cache size: for
# MobileNetV2 on an Ethos-U85-256 a 288 KiB cache is 8% faster than 384 KiB
# (bench/RESULTS.md), so a grid finds what the budget alone does not.
CACHE_GRID_STEPS = 8
CACHE_GRID_SMALLEST = 4  # of CACHE_GRID_STEPS: half the budget


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One configuration: Vela's memory mode, strategy and arena cache, and the
    input layout the model is lowered in."""

    memory_mode: str
    optimise: str
    arena_cache_bytes: Optional[int] = None  # Dedicated_Sram only
    input_layout: str = "nchw"  # layout.InputLayout's value; not a Vela flag

    @classmethod
    def from_row(cls, row: Mapping[str, object]) -> Candidate:
        """The configuration of one row of a summary's `tuning.trials`."""
        cache = row.get("arena_cache_bytes")
        return cls(
            memory_mode=str(row["memory_mode"]),
            optimise=str(row.get("optimise", DEFAULT_STRATEGY)),
            arena_cache_bytes=int(cache) if isinstance(cache, int) else None,
            input_layout=str(row.get("input_layout", "nchw")),
        )

    @property
    def vela_flags(self) -> tuple[str, ...]:
        # Vela's default strategy goes unsaid, so the default configuration's
        # flags (and .pte, which records them) are those of a plain compile.
        flags: tuple[str, ...] = () if self.optimise == DEFAULT_STRATEGY else (f"--optimise={self.optimise}",)
        if self.arena_cache_bytes is not None:
            flags += (f"--arena-cache-size={self.arena_cache_bytes}",)
        return flags

    def describe(self) -> str:
        """ "NHWC input, Dedicated_Sram, arena cache 288 KiB"."""
        parts = [f"{self.input_layout.upper()} input", self.memory_mode]
        if self.arena_cache_bytes:
            parts.append(f"arena cache {self.arena_cache_bytes // KIB:,} KiB")
        if self.optimise != DEFAULT_STRATEGY:
            parts.append(f"optimise {self.optimise}")
        return ", ".join(parts)


# The precision tuner (aot/search/precision.py): 16-bit activations on the k layers
# of worst quantization error, k = 1 .. this many, between int8 everywhere and
# A16W8 everywhere. Each try is one more lowering and evaluation.
PRECISION_MAX_LAYERS = 3


@dataclasses.dataclass(frozen=True)
class Precision:
    """One precision configuration: the global activation width and the
    layers given 16-bit activations on top of int8."""

    quantize: str = "int8"  # QuantMode's value: int8 | a16w8, everywhere but `modules`
    layers: tuple[str, ...] = ()  # the worst layers (layer_error's order) whose activations go to 16 bits
    # The modules configured A16W8: `layers` and the modules reading their
    # outputs, so the activations stay 16-bit between them.
    modules: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Mapping[str, object]) -> Precision:
        """The configuration of one row of a summary's `precision_tuning.trials`."""
        return cls(
            quantize=str(row["quantize"]),
            layers=_names(row.get("layers")),
            modules=_names(row.get("a16w8_modules")),
        )

    def describe(self) -> str:
        """ "int8, 16-bit activations at wide (A16W8 modules: head, wide)"."""
        if self.quantize != "int8":
            return f"{self.quantize.upper()} everywhere"
        if not self.modules:
            return "int8 everywhere"
        return f"int8, 16-bit activations at {', '.join(self.layers)} (A16W8 modules: {', '.join(self.modules)})"


def _names(value: object) -> tuple[str, ...]:
    """A summary's list of module paths (absent: none)."""
    return tuple(str(m) for m in value) if isinstance(value, (list, tuple)) else ()
