"""What the tuner chose for kws_dscnn on an Ethos-U55-128 within 24 KiB of
SRAM, checked against Vela: the shipped program's figures (Vela's summary
of the final lowering) are those of the configuration the search picked,
which is the fastest of those that fit."""

from __future__ import annotations

import json
import pathlib

from ethosu_sdk.report import tuning as report_tuning

SUMMARY = json.loads(pathlib.Path("tests/tune/kws_u55_tuned.summary.json").read_text())
TUNING = SUMMARY["tuning"]
TRIALS = TUNING["trials"]
CHOSEN = TRIALS[TUNING["chosen"]]


def test_every_configuration_has_vela_figures_or_an_error() -> None:
    # kws_dscnn takes a 4-D input, so both input layouts are tried.
    modes = {(t["input_layout"], t["memory_mode"], t["optimise"]) for t in TRIALS}
    assert modes == {
        (lay, m, o) for lay in ("nchw", "nhwc") for m in ("Sram_Only", "Shared_Sram") for o in ("Performance", "Size")
    }
    for trial in TRIALS:
        assert ("total_cycles" in trial) != ("error" in trial), trial


def test_the_budget_excludes_some_configurations() -> None:
    assert TUNING["sram_budget_kib"] == 24
    assert any(not t["fits"] for t in TRIALS), TRIALS
    for trial in TRIALS:
        if "error" not in trial:
            assert trial["fits"] == (trial["sram_need_kib"] <= 24), trial


def test_the_choice_is_the_fastest_that_fits() -> None:
    assert CHOSEN["fits"]
    fastest = min(t["total_cycles"] for t in TRIALS if t["fits"])
    assert CHOSEN["total_cycles"] == fastest


def test_the_shipped_program_is_the_chosen_configuration() -> None:
    assert SUMMARY["memory_mode"] == CHOSEN["memory_mode"]
    assert SUMMARY["input_layout"] == CHOSEN["input_layout"]
    # Vela's default strategy (Performance) is left unsaid.
    assert SUMMARY["vela_flags"] == (
        [] if CHOSEN["optimise"] == "Performance" else [f"--optimise={CHOSEN['optimise']}"]
    )
    shipped = SUMMARY["vela_total"]
    assert shipped["total_cycles"] == CHOSEN["total_cycles"]
    assert shipped["npu_cycles"] == CHOSEN["npu_cycles"]
    assert shipped["sram_used_kib"] + shipped.get("on_chip_flash_used_kib", 0) == CHOSEN["sram_need_kib"]


def test_the_board_gives_the_budget() -> None:
    summary = json.loads(pathlib.Path("tests/tune/kws_u55_corstone300_tuned.summary.json").read_text())
    assert summary["board"] == "corstone300"
    assert summary["tuning"]["sram_budget_kib"] == 2048  # platforms/boards/corstone300.bzl's SRAM
    # Everything fits 2 MiB, so the fastest configuration of all is chosen.
    trials = summary["tuning"]["trials"]
    assert all(t["fits"] for t in trials if "error" not in t)
    assert summary["vela_total"]["total_cycles"] == min(t["total_cycles"] for t in trials if "error" not in t)


def test_the_untuned_program_is_the_plain_compilation() -> None:
    # What aot_compile ships without --tune: the target's default memory
    # mode (Shared_Sram on U55), NCHW, Vela's default strategy.
    untuned = TRIALS[TUNING["untuned"]]
    assert (untuned["input_layout"], untuned["memory_mode"], untuned["optimise"], untuned["arena_cache_bytes"]) == (
        "nchw",
        "Shared_Sram",
        "Performance",
        None,
    )
    line = report_tuning.choice_line(TUNING)
    if untuned["fits"]:
        ratio = CHOSEN["total_cycles"] / untuned["total_cycles"]
        assert f"; {ratio:.2f}x the cycles of the untuned program (NCHW input, Shared_Sram)" in line
    else:
        assert line.endswith("; the untuned program (NCHW input, Shared_Sram) does not fit"), line
