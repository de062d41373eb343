"""//examples:digits_u55's report and CLI output: the accuracy section on the
real digits summary, checked against figures this test computes itself with
scikit-learn's data and PyTorch (the float model on the held-out split), and
against the model's own source file for the per-layer table's lines."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from typing import Any

import numpy as np
import pytest
from digits_split import float_scores, held_out

LAUNCHER = os.path.join("examples", "digits_u55.sh")
SUMMARY = os.path.join("examples", "digits_u55_model.summary.json")
MODEL_SOURCE = os.path.join("python", "ethosu_sdk", "models", "digits_cnn.py")
MAX_DROP = 0.01  # issue 35: the int8 program within 1 point of float
SVG = "{http://www.w3.org/2000/svg}"
CLASSES = 10


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    report_dir = tmp_path_factory.mktemp("report")
    result = subprocess.run([LAUNCHER, f"--report_dir={report_dir}"], capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    page = (report_dir / "index.html").read_text()
    with open(SUMMARY) as f:
        summary = json.load(f)
    return {"stdout": result.stdout, "page": page, "dir": report_dir, "accuracy": summary["accuracy"]}


@pytest.fixture(scope="module")
def pytorch() -> dict[str, Any]:
    """The float model's scores on the held-out split, computed here."""
    images, labels = held_out()
    return {"scores": float_scores(images), "labels": labels}


def _section(page: str) -> str:
    start = page.index("<h2>Accuracy on")
    return page[start : page.index("<h2>", start + 1)]


def _table_rows(fragment: str) -> list[list[str]]:
    return [
        [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", fragment)
        if "<td" in row
    ]


def _confusion(svg_text: str) -> np.ndarray:
    """The counts read back from the SVG's cell tooltips."""
    root = ElementTree.fromstring(svg_text)
    matrix = np.zeros((CLASSES, CLASSES), dtype=int)
    for rect in root.findall(f"{SVG}rect"):
        label, predicted, count = re.fullmatch(
            r"label (\d+), predicted (\d+): (\d+)", rect.find(f"{SVG}title").text
        ).groups()
        matrix[int(label), int(predicted)] = int(count)
    return matrix


def test_stage_table_is_the_summarys_top1_and_within_a_point_of_pytorch(run, pytorch) -> None:
    rows = _table_rows(_section(run["page"]).split("<h3>")[0])
    assert [r[0] for r in rows] == [
        "float model",
        "PT2E quantized graph",
        "compiled program (host runner, functional NPU model)",
    ]
    float_top1 = float((pytorch["scores"].argmax(1) == pytorch["labels"]).mean())
    for stage, (_, top1, correct, _) in zip(("float", "quantized", "program"), rows):
        figures = run["accuracy"]["stages"][stage]
        assert correct == f"{figures['correct']}/{figures['samples']}"
        assert float(top1.rstrip("%")) / 100 >= float_top1 - MAX_DROP, rows
    # Top-5 of the compiled program against the float model's top-5 here.
    ranked = np.argsort(-pytorch["scores"], axis=1, kind="stable")[:, :5]
    float_top5 = float(np.mean([label in row for label, row in zip(pytorch["labels"], ranked)]))
    assert rows[0][3] == f"{100 * float_top5:.2f}%", rows  # the evaluation's float top-5 is PyTorch's
    for row in rows[1:]:
        assert float(row[3].rstrip("%")) / 100 >= float_top5 - MAX_DROP, rows


def test_confusion_matrix_counts_the_held_out_labels(run, pytorch) -> None:
    svg_file = (run["dir"] / "confusion_matrix.svg").read_text()
    assert svg_file in run["page"]  # the page inlines the file it writes
    matrix = _confusion(svg_file)
    # Each row holds that digit's held-out samples (scikit-learn's split).
    np.testing.assert_array_equal(matrix.sum(1), np.bincount(pytorch["labels"], minlength=CLASSES))
    # The diagonal is the program's top-1 the evaluation counted on its own.
    assert int(np.trace(matrix)) == run["accuracy"]["stages"]["program"]["correct"]
    # Per digit, the program misses at most one more sample than the float model.
    float_matrix = np.zeros((CLASSES, CLASSES), dtype=int)
    np.add.at(float_matrix, (pytorch["labels"], pytorch["scores"].argmax(1)), 1)
    assert np.all(np.diag(matrix) >= np.diag(float_matrix) - 1), (matrix, float_matrix)


def test_layer_table_is_worst_first_with_the_models_source_lines(run) -> None:
    rows = _table_rows(_section(run["page"]).split("<h3>")[1])
    layers = run["accuracy"]["layers"]
    assert [r[0] for r in rows] == [layer["module"] for layer in layers]
    measured = [float(r[3]) for r in rows if r[3] != "lossless"]
    assert measured == sorted(measured) and len(measured) >= 3, rows
    with open(MODEL_SOURCE) as f:
        source = f.read().splitlines()
    for module, kind, where, *_ in rows:
        path, line = re.match(r"(\S+):(\d+)", where).groups()
        assert path == MODEL_SOURCE
        # The line of DigitsCnn.forward that calls the module (or its parent).
        assert f"self.{module.split('.')[0]}" in source[int(line) - 1], (module, where)
        assert kind == next(layer["module_type"] for layer in layers if layer["module"] == module)


def test_cli_prints_each_figure_once(run) -> None:
    out = run["stdout"]
    stages = run["accuracy"]["stages"]
    assert out.count("accuracy on 360 labelled samples (eval):") == 1
    names = {"float": "float model", "quantized": "PT2E quantized graph", "program": "compiled program"}
    page = _table_rows(_section(run["page"]).split("<h3>")[0])
    for (stage, name), row in zip(names.items(), page):
        figures = stages[stage]
        line = re.compile(
            rf"^ +top-1 {100 * figures['top1']:.2f}% \({figures['correct']}/{figures['samples']}\)"
            rf", top-5 {re.escape(row[3])}: {name}",
            re.MULTILINE,
        )
        assert len(line.findall(out)) == 1, (line.pattern, out)
    worst = run["accuracy"]["layers"][0]
    assert out.count(f"lowest quantization SQNR: {worst['module']} ({worst['module_type']}, ") == 1, out
