"""Issue 17's line for the flagship: MobileNetV2 on an Ethos-U85-256 within
384 KiB of SRAM, tuned, against ExecuTorch run.sh's default for that NPU
(NCHW input, Dedicated_Sram_384KB, Vela's Performance strategy). Both figures
are Vela's own estimates of the same network in the same search."""

from __future__ import annotations

import json
import pathlib

SUMMARY = json.loads(pathlib.Path("examples/mv2_u85_model.summary.json").read_text())
TUNING = SUMMARY["tuning"]
TRIALS = TUNING["trials"]
CHOSEN = TRIALS[TUNING["chosen"]]


def test_the_untuned_program_is_executorchs_default() -> None:
    untuned = TRIALS[TUNING["untuned"]]
    assert (untuned["input_layout"], untuned["memory_mode"], untuned["optimise"], untuned["arena_cache_bytes"]) == (
        "nchw",
        "Dedicated_Sram_384KB",
        "Performance",
        None,
    )


def test_tuned_within_the_budget_at_most_0_9x_the_default() -> None:
    assert TUNING["sram_budget_kib"] == 384
    assert CHOSEN["fits"] and CHOSEN["sram_need_kib"] <= 384
    untuned = TRIALS[TUNING["untuned"]]
    assert CHOSEN["total_cycles"] <= 0.9 * untuned["total_cycles"], (CHOSEN, untuned)


def test_the_shipped_program_is_the_chosen_one() -> None:
    assert SUMMARY["vela_total"]["total_cycles"] == CHOSEN["total_cycles"]
    assert SUMMARY["input_layout"] == CHOSEN["input_layout"]
    assert SUMMARY["memory_mode"] == CHOSEN["memory_mode"]
    # The firmware reserves the arena cache the program was scheduled for.
    if CHOSEN["arena_cache_bytes"]:
        assert SUMMARY["fast_scratch_bytes"] == CHOSEN["arena_cache_bytes"]
        assert f"--arena-cache-size={CHOSEN['arena_cache_bytes']}" in SUMMARY["vela_flags"]
