"""The report's per-layer table on a model built to be quantization-sensitive
(sensitive_model.py: the `wide` layer's output channel 0 is 200 times its
others), compiled by ethosu_model with labelled evaluation data: the table
and the CLI lines name `wide` first, by module, type and its line in the
model's source."""

from __future__ import annotations

import html
import json
import os
import pathlib
import re

from ethosu_sdk.report import accuracy, html_report

MODEL = os.path.join("tests", "accuracy", "sensitive_u55_model")
SOURCE = os.path.join("tests", "accuracy", "sensitive_model.py")
MARGIN_DB = 6.0  # the wide layer at least this much worse than the next


def _section() -> accuracy.Section:
    with open(f"{MODEL}.summary.json") as f:
        summary = json.load(f)
    with open(f"{MODEL}.verification.json") as f:
        verification = json.load(f)
    return accuracy.section(summary["accuracy"], None, verification)


def test_report_names_the_wide_layer_first(tmp_path: pathlib.Path) -> None:
    section = _section()
    page = html_report.Report(
        title="sensitive", verdict=None, figures=(), estimates=(), delegation=(), layers=(), accuracy=section
    )
    text = pathlib.Path(html_report.write(page, str(tmp_path))).read_text()
    table = text[text.index("Quantization error per layer") :]
    rows = [
        [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", table.split("</table>")[0])
        if "<td" in row
    ]
    module, kind, where, sqnr, *_ = rows[0]
    assert (module, kind) == ("wide", "Linear"), rows
    assert float(rows[1][3]) - float(sqnr) >= MARGIN_DB, rows
    path, line = re.fullmatch(r"(\S+):(\d+)", where).groups()
    assert path == SOURCE
    with open(SOURCE) as f:
        assert "self.wide(" in f.read().splitlines()[int(line) - 1], where


def test_cli_names_it_first_and_the_accuracy_it_costs() -> None:
    section = _section()
    lines = accuracy.lines(section)
    worst = next(line for line in lines if line.startswith("lowest quantization SQNR: "))
    assert worst.startswith(f"lowest quantization SQNR: wide (Linear, {SOURCE}:"), worst
    # The labels are the float model's classes: float is right on all of
    # them, and the int8 stages lose some.
    top1 = {name: counts for name, _, counts, _ in section.stages}
    assert top1[accuracy.STAGE_NAMES["float"]] == "64/64", section.stages
    quantized = int(top1[accuracy.STAGE_NAMES["quantized"]].split("/")[0])
    assert quantized < 64, section.stages
