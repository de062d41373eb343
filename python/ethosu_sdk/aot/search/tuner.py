"""A search over the input layout and Vela's options for the fastest NPU
program that fits an SRAM budget (`aot_compile --tune`, `ethosu_model(tune = True)`).

The model is lowered once per input layout (NCHW and, for an image input,
NHWC: layout.py); the TOSA graph of each Ethos-U partition is then compiled
by Vela again under each candidate configuration (memory mode, optimisation
strategy, arena cache size), and each candidate's figures come from Vela's
own summary. A candidate fits when the SRAM it needs (Vela's
SRAM figure plus its on-chip flash, which Sram_Only reads at SRAM speed) is
within the budget. The winner has the lowest `total_cycles` (the inference with its
memory stalls), ties broken by less SRAM, then by the order below; the
caller lowers the model again with it, so the shipped program is exactly
what a plain compilation with those options gives.

Not searched: the system config, which describes the board's memories and
clocks and so is not ours to choose. Vela's tensor allocator, block
dependency and hill-climb iterations were tried on MobileNetV2 and moved
nothing (bench/RESULTS.md), so they are not searched either.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from typing import Callable, Mapping, Optional, Sequence, cast

from ethosu_sdk.aot import vela_capture
from ethosu_sdk.aot.errors import InvalidOptionError
from ethosu_sdk.aot.targets import Target, TargetKind
from ethosu_sdk.firmware import board_memory

# The configuration space and Candidate live in the torch-free tuning_config,
# which the report shares.
from ethosu_sdk.tuning_config import (
    CACHE_GRID_SMALLEST,
    CACHE_GRID_STEPS,
    KIB,
    MEMORY_MODES,
    STRATEGIES,
    Candidate,
)


@dataclasses.dataclass
class Trial:
    candidate: Candidate
    figures: dict[str, object]  # Vela's totals over the partitions; empty when Vela refused
    seconds: float
    error: Optional[str] = None

    @property
    def sram_need_kib(self) -> float:
        """SRAM the configuration needs (board_memory.sram_need_kib)."""
        return sum(board_memory.sram_need_kib(self.figures))

    def fits(self, budget_bytes: int) -> bool:
        return self.error is None and self.sram_need_kib * KIB <= budget_bytes

    def as_row(self, budget_bytes: int) -> dict[str, object]:
        row: dict[str, object] = {
            "input_layout": self.candidate.input_layout,
            "memory_mode": self.candidate.memory_mode,
            "optimise": self.candidate.optimise,
            "arena_cache_bytes": self.candidate.arena_cache_bytes,
            "vela_seconds": round(self.seconds, 2),
            "fits": self.fits(budget_bytes),
        }
        if self.error:
            row["error"] = self.error
        else:
            row["sram_need_kib"] = self.sram_need_kib
        for key in ("total_cycles", "npu_cycles", "sram_used_kib", "dram_used_kib", "off_chip_flash_used_kib"):
            if key in self.figures:
                row[key] = self.figures[key]
        return row


def candidates(target: Target, budget_bytes: int, layouts: Sequence[str] = ("nchw",)) -> list[Candidate]:
    """Every configuration the search tries for `target`, in tie-break order
    (the layouts in the order given, the first being the requested one)."""
    found: list[Candidate] = []
    for input_layout in layouts:
        for mode in MEMORY_MODES[target.family]:
            caches: tuple[Optional[int], ...] = (None,)
            if mode == "Dedicated_Sram":  # the cache size is ours to pick, within the budget
                caches = arena_cache_sizes(budget_bytes)
            for optimise in STRATEGIES:
                for cache in caches:
                    found.append(Candidate(mode, optimise, cache, input_layout))
    return found


def arena_cache_sizes(budget_bytes: int) -> tuple[int, ...]:
    """Cache sizes (whole KiB, largest first) tried within `budget_bytes`."""
    steps = range(CACHE_GRID_STEPS, CACHE_GRID_SMALLEST - 1, -1)
    return tuple(sorted({budget_bytes * k // CACHE_GRID_STEPS // KIB * KIB for k in steps} - {0}, reverse=True))


def check_request(target: Target, budget_kib: Optional[int]) -> int:
    """The budget in bytes; a clear error where tuning cannot apply."""
    if target.kind is not TargetKind.ETHOS_U:
        raise InvalidOptionError(f"--tune searches Vela's options: it needs an Ethos-U target, not {target.name}")
    if not budget_kib or budget_kib <= 0:
        raise InvalidOptionError(
            "--tune needs --sram_budget_kib (the SRAM, KiB, the NPU may use on your board, "
            "e.g. 384 for ExecuTorch's Dedicated_Sram_384KB) or --board (its whole SRAM)"
        )
    return budget_kib * KIB


def search(
    target: Target,
    graphs: Mapping[str, list[bytes]],
    budget_bytes: int,
    time_budget_s: float,
    flags_for: Callable[[Candidate], list[str]],
    progress: Callable[[str], None],
) -> tuple[list[Trial], Optional[Trial]]:
    """Compiles every partition's TOSA graph (`graphs`: input layout -> the
    TOSA flatbuffers of that layout's lowering) under each candidate (until
    the time budget is spent); returns all trials and the winner (None when
    nothing fits)."""
    from executorch.backends.arm import arm_vela

    trials: list[Trial] = []
    started = time.monotonic()
    for candidate in candidates(target, budget_bytes, tuple(graphs)):
        if time.monotonic() - started > time_budget_s:
            progress(
                f"tuning: time budget of {time_budget_s:.0f} s spent; {candidate.describe()} and later "
                "configurations not tried"
            )
            break
        t = time.monotonic()
        figures: list[dict[str, object]] = []
        error = None
        try:
            for index, tosa in enumerate(graphs[candidate.input_layout]):
                with tempfile.TemporaryDirectory(prefix="tune-") as work:
                    flags = flags_for(candidate) + ["--verbose-performance"]
                    with vela_capture.stdout_to_file(os.path.join(work, "vela.txt")):
                        arm_vela.vela_compile(tosa, flags, verbose=False, intermediate_path=work)
                    summary = vela_capture.summary_csv(vela_capture.csv_files(os.path.join(work, "output")))
                    if summary is None:
                        raise RuntimeError(f"Vela wrote no summary for partition {index}")
                    figures.append(vela_capture.read_summary_csv(summary))
        except Exception as e:  # Vela rejects configurations it cannot place (e.g. too little SRAM)
            error = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        trial = Trial(candidate, vela_capture.total_of(figures) if error is None else {}, time.monotonic() - t, error)
        trials.append(trial)
        outcome = trial.error or (
            f"{trial.figures.get('total_cycles')} cycles, "
            f"SRAM {trial.sram_need_kib:,.0f} KiB"
            f"{'' if trial.fits(budget_bytes) else ' (over budget)'}"
        )
        progress(f"tuning: {candidate.describe()}: {outcome}")
    fitting = [t for t in trials if t.fits(budget_bytes)]
    best = min(
        fitting,
        key=lambda t: (float(cast(float, t.figures.get("total_cycles", float("inf")))), t.sram_need_kib),
        default=None,
    )
    return trials, best
