"""The tuner's searches as a person reads them: one line for the choice, one
table row per configuration. Vela's options: a summary's `tuning` entry
(python/ethosu_sdk/aot/search/tuner.py); precision: its `precision_tuning` entry
(python/ethosu_sdk/aot/search/precision.py)."""

from __future__ import annotations

from typing import Mapping, Optional

from ethosu_sdk.tuning_config import KIB, Candidate, Precision


def configuration(trial: Mapping[str, object]) -> str:
    """ "NHWC input, Dedicated_Sram, arena cache 288 KiB" for one trial."""
    return Candidate.from_row(trial).describe()


def gain(tuning: Mapping[str, object]) -> Optional[float]:
    """The chosen program's total cycles over the untuned program's (what a
    plain compilation ships); None when the untuned one was not tried or
    does not fit the budget (a ratio against a program the board cannot
    hold would flatter nobody)."""
    trials = tuning["trials"]
    untuned = tuning.get("untuned")
    if untuned is None or not trials[untuned]["fits"]:  # type: ignore[index]
        return None
    return trials[tuning["chosen"]]["total_cycles"] / trials[untuned]["total_cycles"]  # type: ignore[index]


def choice_line(tuning: Mapping[str, object]) -> str:
    """One line: what was chosen, against what, out of how many."""
    trials = tuning["trials"]
    chosen = trials[tuning["chosen"]]  # type: ignore[index]
    line = (
        f"{configuration(chosen)}, the fastest of {len(trials)} configurations tried within "
        f"{tuning['sram_budget_kib']:,} KiB of SRAM"
    )  # type: ignore[arg-type]
    if tuning.get("untuned") is None:
        return line
    untuned = trials[tuning["untuned"]]  # type: ignore[index]
    ratio = gain(tuning)
    if ratio is not None:
        return line + f"; {ratio:.2f}x the cycles of the untuned program ({configuration(untuned)})"
    return line + f"; the untuned program ({configuration(untuned)}) does not fit"


def rows(tuning: Optional[Mapping[str, object]]) -> list[list[object]]:
    """The search as table rows, in the order tried."""
    if not tuning:
        return []
    table = []
    for index, trial in enumerate(tuning["trials"]):  # type: ignore[arg-type]
        cache = trial.get("arena_cache_bytes")
        mark = "chosen" if index == tuning["chosen"] else ("untuned" if index == tuning.get("untuned") else "")
        table.append(
            [
                str(trial.get("input_layout", "nchw")).upper(),
                trial["memory_mode"],
                trial["optimise"],
                cache // KIB if cache else "",
                f"{trial['total_cycles']:,}" if "total_cycles" in trial else trial.get("error", ""),
                f"{trial['npu_cycles']:,}" if "npu_cycles" in trial else "",
                f"{trial['sram_need_kib']:,.0f}" if "sram_need_kib" in trial else "",
                f"{trial['dram_used_kib']:,.0f}" if "dram_used_kib" in trial else "",
                "yes" if trial["fits"] else "no",
                trial["vela_seconds"],
                mark,
            ]
        )
    return table


def precision_line(entry: Mapping[str, object]) -> str:
    """One line: the precision chosen, its accuracy and cycles, out of how many."""
    trials = entry["trials"]
    chosen = trials[entry["chosen"]]  # type: ignore[index]
    float_top1 = float(entry["float_top1"])  # type: ignore[arg-type]
    return (
        f"{Precision.from_row(chosen).describe()}: top-1 {100 * chosen['top1']:.2f}% against float "
        f"{100 * float_top1:.2f}% (tolerance {entry['accuracy_tolerance_points']:g} points), "
        f"{chosen['total_cycles']:,} cycles; the fastest within tolerance of {len(trials)} "  # type: ignore[arg-type]
        "precisions tried"
    )


def precision_rows(entry: Optional[Mapping[str, object]]) -> list[list[object]]:
    """The precision search as table rows, in the order tried."""
    if not entry:
        return []
    table: list[list[object]] = []
    for index, trial in enumerate(entry["trials"]):  # type: ignore[arg-type]
        cycles = trial.get("total_cycles")
        table.append(
            [
                Precision.from_row(trial).describe(),
                f"{100 * trial['top1']:.2f}% ({trial['correct']}/{trial['samples']})",
                f"{trial['drop_points']:.2f}",
                "yes" if trial["within_tolerance"] else "no",
                f"{cycles:,}" if cycles is not None else "",
                (trial.get("verification") or {}).get("status", "not run"),
                "chosen" if index == entry["chosen"] else "",
            ]
        )
    return table
