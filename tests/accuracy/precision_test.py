"""The precision tuner on the quantization-sensitive model
(sensitive_model.py: the `wide` layer's output channel 0 is 200 times its
others), compiled by ethosu_model with a tolerance of
PRECISION_TOLERANCE_POINTS on labelled samples whose labels are the float
model's classes (sensitive_data.py): int8 everywhere loses more than the
tolerance, 16-bit activations at the wide layer meet it, and the choice
carries the wide layer's activations in 16 bits, is within the tolerance,
and is the fastest such program by Vela's total_cycles, which the summary
records for every trial."""

from __future__ import annotations

import html
import json
import os
import pathlib
import re

from ethosu_sdk.report import html_report
from ethosu_sdk.report import tuning as report_tuning
from ethosu_sdk.tuning_config import Precision

MODEL = os.path.join("tests", "accuracy", "sensitive_u55_precision")
TOLERANCE_POINTS = float(os.environ["PRECISION_TOLERANCE_POINTS"])
SAMPLES = 64  # SENSITIVE_EVAL


def _summary() -> dict:
    with open(f"{MODEL}.summary.json") as f:
        return json.load(f)


def _drop(float_correct: int, correct: int) -> float:
    return 100.0 * (float_correct - correct) / SAMPLES


def test_int8_everywhere_misses_the_tolerance() -> None:
    summary = _summary()
    entry = summary["precision_tuning"]
    int8 = entry["trials"][0]
    assert (int8["quantize"], int8["a16w8_modules"]) == ("int8", []), int8
    # The labels are the float model's own classes: float is right on all.
    assert summary["accuracy"]["stages"]["float"]["correct"] == SAMPLES
    assert entry["float_top1"] == 1.0
    assert _drop(SAMPLES, int8["correct"]) > TOLERANCE_POINTS, int8
    assert not int8["within_tolerance"]


def test_16_bits_at_the_wide_layer_meet_the_tolerance() -> None:
    entry = _summary()["precision_tuning"]
    per_layer = [t for t in entry["trials"] if t["layers"]]
    first = per_layer[0]
    # The worst layer first, with its reader (the head), so the activation
    # stays 16-bit from wide to head.
    assert first["layers"] == ["wide"] and first["a16w8_modules"] == ["head", "wide"], first
    assert first["within_tolerance"] and _drop(SAMPLES, first["correct"]) <= TOLERANCE_POINTS, first


def test_the_choice_carries_the_wide_layer_in_16_bits_within_tolerance() -> None:
    summary = _summary()
    entry = summary["precision_tuning"]
    chosen = entry["trials"][entry["chosen"]]
    assert chosen["quantize"] == "a16w8" or "wide" in chosen["a16w8_modules"], chosen
    assert summary["quantize"] == chosen["quantize"] and summary["a16w8_modules"] == chosen["a16w8_modules"]
    # The shipped program is the chosen configuration compiled again: its
    # accuracy, measured on the host runner (the functional NPU model), is
    # the trial's and within the tolerance of float.
    program = summary["accuracy"]["stages"]["program"]
    assert program["correct"] == chosen["correct"], (program, chosen)
    assert _drop(SAMPLES, program["correct"]) <= TOLERANCE_POINTS, program


def test_the_cycle_cost_is_recorded_and_the_choice_is_the_fastest_within() -> None:
    summary = _summary()
    entry = summary["precision_tuning"]
    trials = entry["trials"]
    assert len(trials) >= 3 and trials[-1]["quantize"] == "a16w8", trials  # int8, per layer, A16W8
    for trial in trials:
        assert isinstance(trial["total_cycles"], int) and trial["total_cycles"] > 0, trial
        assert trial["within_tolerance"] == (_drop(SAMPLES, trial["correct"]) <= TOLERANCE_POINTS), trial
    chosen = trials[entry["chosen"]]
    assert chosen["total_cycles"] == min(t["total_cycles"] for t in trials if t["within_tolerance"])
    # The figure is Vela's for the program shipped.
    assert chosen["total_cycles"] == summary["vela_total"]["total_cycles"]


def test_every_trial_and_the_shipped_program_are_verified() -> None:
    # Each trial's program against the TOSA reference model, bit for bit.
    for trial in _summary()["precision_tuning"]["trials"]:
        assert trial["verification"]["status"] == "pass", trial
    with open(f"{MODEL}.verification.json") as f:
        assert json.load(f)["status"] == "pass"


def test_report_lines_and_rows() -> None:
    entry = _summary()["precision_tuning"]
    chosen = entry["trials"][entry["chosen"]]
    line = report_tuning.precision_line(entry)
    assert line.startswith(Precision.from_row(chosen).describe() + ": "), line
    assert f"{chosen['total_cycles']:,} cycles" in line, line
    assert f"tolerance {TOLERANCE_POINTS:g} points" in line, line
    rows = report_tuning.precision_rows(entry)
    assert len(rows) == len(entry["trials"])
    assert [row[-1] for row in rows].count("chosen") == 1
    assert rows[0][0] == "int8 everywhere" and rows[-1][0] == "A16W8 everywhere"


def test_report_page_has_one_row_per_trial(tmp_path: pathlib.Path) -> None:
    entry = _summary()["precision_tuning"]
    page = html_report.Report(
        title="sensitive",
        verdict=None,
        figures=(),
        estimates=(),
        delegation=(),
        layers=(),
        precision=report_tuning.precision_rows(entry),
    )
    text = pathlib.Path(html_report.write(page, str(tmp_path))).read_text()
    table = text[text.index("precisions tried") :].split("</table>")[0]
    rows = [
        [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", table)
        if "<td" in row
    ]
    assert len(rows) == len(entry["trials"])
    for row, trial in zip(rows, entry["trials"]):
        assert row[1].endswith(f"({trial['correct']}/{trial['samples']})"), row
        assert row[4] == f"{trial['total_cycles']:,}" and row[5] == trial["verification"]["status"], row
    assert rows[entry["chosen"]][-1] == "chosen"
