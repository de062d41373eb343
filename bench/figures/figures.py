"""The deterministic figures a run prints, and the guard that keeps them from
getting worse.

Every figure here is the same on every run of the same commit: QEMU counts
instructions under `-icount`, the NPU device's PMU counts its own cycles,
Vela's estimate and the byte counts come from the build, and the AOT stage
pins its float arithmetic (python/ethosu_sdk/host_numerics.py). So a figure
that moves moved because the code did, and a move in the wrong direction is
a regression. `baselines.json` holds the recorded value of each; a run that
prints a worse one fails its test, and a better one is reported so the
baseline can be lowered in the same commit.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

BASELINES = Path(__file__).with_name("baselines.json")


@dataclasses.dataclass(frozen=True)
class Figure:
    """One figure of a run's output: where it is printed and which way is better."""

    name: str
    pattern: str  # one group: the number, with thousands separators
    higher_is_better: bool = False

    def find(self, output: str) -> int | None:
        match = re.search(self.pattern, output, re.MULTILINE)
        return int(match.group(1).replace(",", "")) if match else None


# The lines of `python/ethosu_sdk/cli/run_model.py`'s output that carry them.
FIGURES = (
    Figure("pte_bytes", r"^\s+\.pte: ([\d,]+) bytes$"),
    Figure("vela_cycles", r"^\s+inference: ([\d,]+) cycles \("),
    Figure("firmware_text_bytes", r"^\[3/4\] Firmware for \S+: text ([\d,]+),"),
    Figure("bit_exact_outputs", r"^\s+output 0: [\d/]+ within one quantization step, ([\d,]+) bit-exact", True),
    Figure("npu_pmu_cycles", r"PMU cycle counter ([\d,]+)"),
    Figure("cpu_instructions", r"^\s+CPU instructions: ([\d,]+) per inference"),
    Figure("cpu_instructions_in_npu_calls", r"per inference \(QEMU -icount; of which ([\d,]+) in the NPU calls"),
    Figure("planned_arena_bytes", r"^\s+memory: program [\d,]+, planned arena ([\d,]+),"),
    Figure("runtime_arena_used_bytes", r"runtime arena ([\d,]+) of "),
    Figure("peak_memory_bytes", r"^\s+memory: .*, peak ([\d,]+) bytes;"),
)


def parse(output: str) -> dict[str, int]:
    """The figures `output` prints (a CPU-only run has no Vela or PMU lines)."""
    found = {figure.name: figure.find(output) for figure in FIGURES}
    return {name: value for name, value in found.items() if value is not None}


def load_baselines(path: Path = BASELINES) -> dict[str, dict[str, int]]:
    return json.loads(path.read_text())["runs"]


@dataclasses.dataclass(frozen=True)
class Comparison:
    regressions: list[str]
    improvements: list[str]


def compare(run: str, measured: dict[str, int], baseline: dict[str, int]) -> Comparison:
    """Each recorded figure of `run` against what it printed this time."""
    by_name = {figure.name: figure for figure in FIGURES}
    regressions: list[str] = []
    improvements: list[str] = []
    for name, recorded in sorted(baseline.items()):
        if name not in measured:
            regressions.append(f"{run}: {name} was recorded as {recorded:,} but the run no longer prints it")
            continue
        now = measured[name]
        if now == recorded:
            continue
        worse = now < recorded if by_name[name].higher_is_better else now > recorded
        change = f"{run}: {name} {recorded:,} -> {now:,} ({now - recorded:+,}, {(now - recorded) / recorded:+.4%})"
        (regressions if worse else improvements).append(change)
    return Comparison(regressions, improvements)


def guard(run: str, output: str, baselines: dict[str, dict[str, int]] | None = None) -> list[str]:
    """Asserts no recorded figure of `run` got worse; returns the improvements."""
    recorded = (baselines if baselines is not None else load_baselines())[run]
    result = compare(run, parse(output), recorded)
    assert not result.regressions, (
        "a recorded figure got worse (bench/figures/baselines.json): "
        + "; ".join(result.regressions)
        + ". If the change is intended, update the baseline in the same commit and say why."
    )
    return result.improvements
