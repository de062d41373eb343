"""One self-contained HTML page (charts inlined as PNG data URIs) plus the
same charts as PNG files next to it."""

from __future__ import annotations

import base64
import dataclasses
import glob
import html
import os
from typing import Mapping, Sequence

from ethosu_sdk.report import confusion_svg, vela_layers
from ethosu_sdk.report import verification as verification_view
from ethosu_sdk.report.accuracy import Section
from ethosu_sdk.report.vela_layers import Layer


@dataclasses.dataclass
class Report:
    title: str
    verdict: str | None  # "PASS" / "FAIL" / None (no run)
    figures: Sequence[tuple[str, str]]  # the run: label, value
    estimates: Sequence[tuple[str, str]]  # Vela's: label, value
    delegation: Sequence[tuple[str, str, int]]  # operator, where it runs, count
    layers: Sequence[Layer]
    notes: Sequence[str] = ()
    # The tuner's search (aot_compile --tune): one row per configuration tried.
    tuning: Sequence[Sequence[object]] = ()
    tuning_chart: str = ""  # the same search as an SVG picture (report/tuning_svg.py)
    # ethosu_model(accuracy_tolerance = ...): the precisions tried (report/tuning.py).
    precision: Sequence[Sequence[object]] = ()
    # ethosu_model's verification (.verification.json): its summary line and
    # one row per layer compared with the TOSA reference model.
    verification: str = ""
    verification_table: verification_view.Table | None = None
    # TOSA tensor -> (PyTorch module path, operator), from the verification:
    # names the per-layer table's rows the way the model's author knows them.
    layer_origins: Mapping[str, tuple[str, str]] = dataclasses.field(default_factory=dict)
    # ethosu_model(eval_data = ...): accuracy per stage, per-layer error.
    accuracy: Section | None = None


_STYLE = """
body { font-family: sans-serif; margin: 1.5em auto; padding: 0 1em; max-width: 1180px; color: #222; }
h1 { margin-bottom: 0.2em; }
.verdict { display: inline-block; padding: 0.2em 0.8em; border-radius: 0.3em; color: white; font-weight: bold; }
.PASS { background: #2e7d32; } .FAIL { background: #c62828; } .none { background: #777; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; font-size: 0.9em; overflow-wrap: break-word; }
table { max-width: 100%; }
summary { cursor: pointer; font-weight: bold; margin: 0.5em 0; }
td.mark { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
img.chart { width: 100%; max-width: 1100px; }
.note { color: #555; font-size: 0.85em; }
svg.confusion { display: block; margin: 0.5em 0 1.5em; }
dl.card { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 0.6em;
  border: 1px solid #ccc; border-radius: 0.4em; padding: 0.8em; background: #f7f7f7; margin: 0 0 1.5em; }
dl.card dt { font-size: 0.8em; color: #555; } dl.card dd { margin: 0; font-weight: bold; }
svg.tuning { display: block; max-width: 100%; height: auto; }
"""


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = []
        for value in row:
            css = ' class="num"' if isinstance(value, (int, float)) else ""
            text = (
                f"{value:,}" if isinstance(value, int) else (f"{value:.1f}" if isinstance(value, float) else str(value))
            )
            cells.append(f"<td{css}>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _chart(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img class="chart" alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


# The charts: file name -> alt text.
CHARTS = {
    "npu_cycles.png": "NPU cycles per layer",
    "memory_accesses.png": "Memory accesses per layer",
    "mac_utilisation.png": "MAC utilisation per layer",
}


def read_layers(intermediates: str | None) -> list[Layer]:
    """Every layer of Vela's per-layer CSVs in a model's intermediates."""
    layers: list[Layer] = []
    if intermediates:
        for path in sorted(glob.glob(os.path.join(intermediates, "*per-layer*.csv"))):
            layers += vela_layers.read(path)
    return layers


def _npu_layers(layers: Sequence[Layer]) -> list[Layer]:
    return [layer for layer in layers if layer.target == "NPU"]


def layer_origins(verification: dict) -> dict[str, tuple[str, str]]:
    """TOSA tensor -> (PyTorch module path, operator) from a
    `<name>.verification.json`: Vela's per-layer CSV names a layer by the
    TOSA tensor it writes."""
    return {
        layer["tensor"]: (layer["module"] or "<model>", layer["op"] or "")
        for p in verification["partitions"]
        for layer in p["layers"]
    }


def render_charts(
    layers: Sequence[Layer], origins: Mapping[str, tuple[str, str]] | None = None
) -> dict[str, tuple[str, bytes]]:
    """The chart PNGs of the NPU layers (empty without any)."""
    npu_layers = _npu_layers(layers)
    if not npu_layers:
        return {}
    # matplotlib takes seconds to import: only the build action that renders
    # charts pays for it (python/ethosu_sdk/report/render_charts.py).
    from ethosu_sdk.report import charts  # pylint: disable=import-outside-toplevel

    return {
        "npu_cycles.png": (
            CHARTS["npu_cycles.png"],
            charts.cycles_per_layer(
                npu_layers,
                "NPU cycles per layer (Vela estimate)",
                [(origins or {}).get(layer.name, ("", ""))[0] for layer in npu_layers],
            ),
        ),
        "memory_accesses.png": (
            CHARTS["memory_accesses.png"],
            charts.memory_accesses_per_layer(npu_layers, "SRAM / DRAM accesses per layer"),
        ),
        "mac_utilisation.png": (
            CHARTS["mac_utilisation.png"],
            charts.mac_utilisation_per_layer(npu_layers, "MAC utilisation per layer"),
        ),
    }


def read_charts(directory: str) -> dict[str, tuple[str, bytes]]:
    """Charts rendered earlier by render_charts.py into `directory`."""
    pngs: dict[str, tuple[str, bytes]] = {}
    for name, alt in CHARTS.items():
        path = os.path.join(directory, name)
        if os.path.exists(path):
            with open(path, "rb") as f:
                pngs[name] = (alt, f.read())
    return pngs


CONFUSION_SVG = "confusion_matrix.svg"


def _accuracy(section: Section, directory: str) -> list[str]:
    """The accuracy section; writes the confusion matrix's SVG beside the page
    and inlines the same picture."""
    parts = [
        f"<h2>Accuracy on {section.samples:,} labelled samples ({html.escape(section.source)}, "
        f"{section.classes} classes)</h2>",
        # "-": top-5 not measured at that stage (accuracy.py's notes say why).
        _table(["stage", "top-1", "correct", "top-5"], [(*row[:3], row[3] or "-") for row in section.stages]),
    ]
    if section.confusion is not None:
        svg = confusion_svg.render(section.confusion, "Confusion matrix: compiled program")
        with open(os.path.join(directory, CONFUSION_SVG), "w", encoding="utf-8") as f:
            f.write(svg)
        parts.append(svg)
    if section.layers:
        parts += [
            "<h3>Quantization error per layer (SQNR, lowest first)</h3>",
            _table(
                ["module (PyTorch)", "type", "source", "SQNR dB", "SQNR from input dB", "elements"],
                section.layers,
            ),
        ]
    parts += [f"<p class='note'>{html.escape(note)}</p>" for note in section.notes]
    return parts


_TUNING_COLUMNS = [
    "input layout",
    "memory mode",
    "optimise",
    "arena cache KiB",
    "total cycles",
    "compute cycles",
    "SRAM KiB",
    "DRAM KiB",
    "fits",
    "Vela s",
    "choice",
]
_PRECISION_COLUMNS = [
    "precision",
    "top-1",
    "drop (points)",
    "within tolerance",
    "total cycles",
    "verification",
    "choice",
]
_LAYER_COLUMNS = [
    "#",
    "module (PyTorch)",
    "PyTorch op",
    "TOSA tensor",
    "Vela operator",
    "NPU cycles",
    "MACs",
    "MAC util %",
    "SRAM acc.",
    "DRAM acc.",
]
# Lets a headless browser (tests) confirm every chart decoded.
_CHARTS_LOADED_SCRIPT = (
    "<script>window.addEventListener('load', () => { document.body.dataset.chartsLoaded = "
    "[...document.querySelectorAll('img.chart')].filter(i => i.complete && i.naturalWidth > 0)"
    ".length; });</script>"
)


def _tuning(report: Report) -> list[str]:
    parts = []
    if report.tuning:
        parts += [
            "<h2>Tuning: input layouts and Vela configurations tried</h2>",
            report.tuning_chart,
            "<p class='note'>One point per configuration: red the choice, blue the untuned program, "
            "green within the SRAM budget, grey beyond it.</p>",
            f"<details><summary>The {len(report.tuning)} configurations</summary>",
            _table(_TUNING_COLUMNS, report.tuning),
            "</details>",
        ]
    if report.precision:
        parts += [
            "<h2>Tuning: precisions tried (compiled program's top-1 against float)</h2>",
            _table(_PRECISION_COLUMNS, report.precision),
        ]
    return parts


def _verification(report: Report) -> list[str]:
    if not report.verification:
        return []
    parts = [
        "<h2>Verification against the TOSA reference model</h2>",
        f"<p>{html.escape(report.verification)}</p>",
    ]
    table = report.verification_table
    if table is not None and table.rows:
        parts += [
            f"<p>{len(table.rows)} NPU layers: {html.escape(verification_view.legend(table.counts))}</p>",
            f"<details open><summary>One row per NPU layer ({len(table.rows)})</summary>",
            _table(verification_view.COLUMNS, table.rows),
            f"<p class='note'>{html.escape(verification_view.PARTS_NOTE)}</p>",
            "<ol class='note'>" + "".join(f"<li>{html.escape(n)}</li>" for n in table.notes) + "</ol>",
            "</details>",
        ]
    return parts


def _per_layer(report: Report, pngs: dict) -> list[str]:
    """The charts, then one row per NPU layer with its PyTorch origin."""
    parts = ["<h2>Per layer</h2>"]
    parts += [_chart(png, alt) for alt, png in pngs.values()]
    origins = report.layer_origins
    rows = [
        (
            i,
            *origins.get(layer.name, ("", "")),
            layer.name,
            layer.operator,
            layer.cycles,
            layer.macs,
            layer.mac_utilisation,
            layer.sram_accesses,
            layer.dram_accesses,
        )
        for i, layer in enumerate(_npu_layers(report.layers))
    ]
    parts.append(_table(_LAYER_COLUMNS, rows))
    return parts


# The summary card: figures of the sections below, by their labels there.
_CARD_FIGURES = ("top-5 classes", "output 0 vs reference", "NPU PMU cycle counter", "CPU instructions per inference")
_CARD_ESTIMATES = ("inference", "SRAM used", "DRAM used")


def _card(report: Report) -> list[str]:
    """The run at a glance, before the sections that detail it."""
    chosen = [(k, v) for k, v in report.figures if k in _CARD_FIGURES]
    chosen += [(f"Vela: {k}", v) for k, v in report.estimates if k in _CARD_ESTIMATES]
    table = report.verification_table
    if table is not None and table.rows:
        chosen.append(("NPU layers vs TOSA", verification_view.legend(table.counts)))
    if not chosen:
        return []
    items = "".join(f"<div><dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd></div>" for k, v in chosen)
    return [f"<dl class='card'>{items}</dl>"]


def write(report: Report, directory: str, charts_dir: str | None = None) -> str:
    """Writes index.html and the chart PNGs into `directory`; returns the page's
    path. Charts come from `charts_dir` when given, else are rendered here."""
    os.makedirs(directory, exist_ok=True)
    pngs = read_charts(charts_dir) if charts_dir else render_charts(report.layers, report.layer_origins)
    for name, (_, png) in pngs.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(png)
    verdict = report.verdict or "none"
    parts = [
        "<!DOCTYPE html>",
        f"<html><head><meta charset='utf-8'><title>{html.escape(report.title)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(report.title)}</h1>",
        f"<p><span class='verdict {verdict}'>{html.escape(report.verdict or 'not run')}</span></p>",
        *_card(report),
    ]
    if report.figures:
        parts += ["<h2>Run on the board</h2>", _table(["figure", "value"], report.figures)]
    if report.accuracy is not None:
        parts += _accuracy(report.accuracy, directory)
    if report.estimates:
        parts += ["<h2>Vela's estimate</h2>", _table(["figure", "value"], report.estimates)]
    parts += _tuning(report)
    parts += _verification(report)
    if report.delegation:
        parts += ["<h2>Delegation map</h2>", _table(["operator", "runs on", "count"], report.delegation)]
    if pngs:
        parts += _per_layer(report, pngs)
    parts += [f"<p class='note'>{html.escape(note)}</p>" for note in report.notes]
    parts.append(_CHARTS_LOADED_SCRIPT)
    parts.append("</body></html>")
    page = os.path.join(directory, "index.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")
    return page
