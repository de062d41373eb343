"""The MLPerf Tiny table as a hand-written SVG bar chart (no plotting
library): one panel per model, a bar per target on a log scale; CPU
targets show instructions per inference (QEMU -icount), NPU targets Vela's
cycles, and a tick marks the published cycles on silicon of the same core."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from published import BY_TARGET
from table import Cell

_BAR = 14  # bar height, px
_GAP = 4
_LABEL_W = 120  # target names, left of the axis
_PLOT_W = 460
_VALUE_W = 110  # the figure, right of the bar (and room for the title)
_TITLE_H = 22
_LOW, _HIGH = 4, 10  # axis from 10^4 to 10^10
_COLOURS = {"cpu": "#4878a8", "npu": "#d9822b", "fail": "#b03030"}


def _x(value: float) -> float:
    fraction = (math.log10(max(value, 10**_LOW)) - _LOW) / (_HIGH - _LOW)
    return _LABEL_W + min(fraction, 1.0) * _PLOT_W


def _figure(cell: Cell) -> int | None:
    key = "vela_cycles" if cell.target.npu else "cpu_instructions"
    return cell.figures.get(key)


def _panel(model: str, cells: list[Cell], top: float) -> tuple[list[str], float]:
    out = [f'<text x="4" y="{top + 15}" font-weight="bold">{escape(model)}</text>']
    y = top + _TITLE_H
    for cell in cells:
        value = _figure(cell)
        colour = _COLOURS["fail"] if not cell.passed else _COLOURS["npu" if cell.target.npu else "cpu"]
        out.append(f'<text x="{_LABEL_W - 6}" y="{y + _BAR - 3}" text-anchor="end">{escape(cell.target.name)}</text>')
        if value:
            width = _x(value) - _LABEL_W
            out.append(f'<rect x="{_LABEL_W}" y="{y}" width="{width:.1f}" height="{_BAR}" fill="{colour}"/>')
            out.append(f'<text x="{_LABEL_W + width + 4:.1f}" y="{y + _BAR - 3}">{value / 1e6:.2f} M</text>')
        else:
            out.append(f'<text x="{_LABEL_W + 4}" y="{y + _BAR - 3}" fill="{_COLOURS["fail"]}">no figure</text>')
        published = BY_TARGET.get(cell.target.name)
        if published and model in published.mcycles:
            px = _x(published.mcycles[model] * 1e6)
            out.append(
                f'<line x1="{px:.1f}" x2="{px:.1f}" y1="{y - 2}" y2="{y + _BAR + 2}" stroke="black" stroke-width="2"/>'
            )
        y += _BAR + _GAP
    return out, y + 8


def _axis(top: float, bottom: float) -> list[str]:
    out = []
    for power in range(_LOW, _HIGH + 1):
        x = _x(10**power)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle">1e{power}</text>')
    return out


def svg(cells: list[Cell], models: list[str]) -> str:
    """The chart of `cells`, models in the order given."""
    body: list[str] = []
    top = 30.0
    for model in models:
        panel, top = _panel(model, [c for c in cells if c.model == model], top)
        body += panel
    width = _LABEL_W + _PLOT_W + _VALUE_W
    height = top + 60
    legend_y = top + 36
    header = (
        '<text x="4" y="16" font-weight="bold">MLPerf Tiny per inference (log scale): CPU instructions '
        "(QEMU -icount), NPU cycles (Vela)</text>"
    )
    legend = (
        f'<rect x="4" y="{legend_y - 10}" width="10" height="10" fill="{_COLOURS["cpu"]}"/>'
        f'<text x="18" y="{legend_y}">CPU instructions, not cycles</text>'
        f'<rect x="200" y="{legend_y - 10}" width="10" height="10" fill="{_COLOURS["npu"]}"/>'
        f'<text x="214" y="{legend_y}">NPU cycles, Vela</text>'
        f'<line x1="330" x2="330" y1="{legend_y - 11}" y2="{legend_y + 1}" stroke="black" stroke-width="2"/>'
        f'<text x="336" y="{legend_y}">published cycles on silicon (MLPerf Tiny v1.1-v1.3)</text>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
        f'font-family="sans-serif" font-size="11">\n'
        + "\n".join([header] + _axis(30, top - 8) + body + [legend])
        + "\n</svg>\n"
    )
