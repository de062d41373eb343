"""Stage 3b of compile_model (--tune): the tuner's search (tuner.py) over
the TOSA graphs of the first lowerings, and its result."""

from __future__ import annotations

import dataclasses
from typing import Callable

from ethosu_sdk import tuning_config
from ethosu_sdk.aot import layout
from ethosu_sdk.aot.errors import InvalidOptionError
from ethosu_sdk.aot.options import CompileOptions
from ethosu_sdk.aot.search import tuner
from ethosu_sdk.aot.targets import QuantMode, Target, make_compile_spec


@dataclasses.dataclass(frozen=True)
class Tuned:
    target: Target  # with the winning Vela configuration
    input_layout: layout.InputLayout  # the winning input layout
    entry: dict  # the search, for the summary's `tuning`


def tune(
    options: CompileOptions,
    target: Target,
    mode: QuantMode,
    graphs: dict[str, list[bytes]],
    budget_bytes: int,
    progress: Callable[[str], None],
) -> Tuned:
    """The search over `graphs` (input layout -> the lowering's TOSA graphs)."""

    def flags_for(candidate: tuner.Candidate) -> list[str]:
        tried = dataclasses.replace(target, memory_mode=candidate.memory_mode, vela_flags=candidate.vela_flags)
        return list(make_compile_spec(tried, mode).compiler_flags)

    progress(
        f"tuning the input layout and Vela's options within {budget_bytes // tuner.KIB} KiB of SRAM "
        f"(time budget {options.tune_time_budget_s:.0f} s)"
    )
    trials, best = tuner.search(target, graphs, budget_bytes, options.tune_time_budget_s, flags_for, progress)
    if best is None:
        smallest = min((t.sram_need_kib for t in trials if t.error is None), default=None)
        needs = f"; the smallest SRAM figure tried was {smallest:,.0f} KiB" if smallest is not None else ""
        raise InvalidOptionError(
            f"no Vela configuration fits {budget_bytes // tuner.KIB} KiB of SRAM{needs}: "
            "raise --sram_budget_kib or pick a board with more SRAM"
        )
    progress(f"tuned: {best.candidate.describe()}, {best.figures.get('total_cycles')} cycles")
    rows = [trial.as_row(budget_bytes) for trial in trials]
    entry = {
        "sram_budget_kib": budget_bytes // tuner.KIB,
        "time_budget_s": options.tune_time_budget_s,
        "trials": rows,
        "chosen": trials.index(best),
    }
    # The program a plain compilation would have shipped, to measure the gain against.
    untuned = tuner.Candidate(str(target.memory_mode), tuning_config.DEFAULT_STRATEGY, None, next(iter(graphs)))
    if not target.vela_flags:
        entry["untuned"] = next((i for i, trial in enumerate(trials) if trial.candidate == untuned), None)
    return Tuned(
        dataclasses.replace(target, memory_mode=best.candidate.memory_mode, vela_flags=best.candidate.vela_flags),
        layout.InputLayout(best.candidate.input_layout),
        entry,
    )
