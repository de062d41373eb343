"""The tuner's search as a picture: Vela's total cycles against the SRAM
each configuration needs (log scale), the SRAM budget as a line, the choice
and the untuned program marked. SVG written as text: it is drawn at
`bazel run` time, where matplotlib's import would cost seconds."""

from __future__ import annotations

import math
from typing import Mapping, Sequence
from xml.sax.saxutils import escape

from ethosu_sdk.report.tuning import configuration

WIDTH, HEIGHT = 760, 360
LEFT, RIGHT, TOP, BOTTOM = 90, 20, 30, 50  # room for the axes' labels
FITS, DOES_NOT_FIT, CHOSEN, UNTUNED = "#2e7d32", "#bbbbbb", "#c62828", "#1565c0"


def _scale(low: float, high: float, start: float, end: float, log: bool = False):
    f = math.log10 if log else (lambda v: v)
    a, b = f(low), f(high)
    return lambda v: start + (f(v) - a) / ((b - a) or 1) * (end - start)


def _axes(x, y, sram: Sequence[float], cycles: Sequence[int], budget: float) -> list[str]:
    parts = [
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="#222"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#222"/>',
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 8}" text-anchor="middle">'
        "SRAM needed (KiB, log scale)</text>",
        f'<text x="14" y="{(TOP + HEIGHT - BOTTOM) / 2:.0f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {(TOP + HEIGHT - BOTTOM) / 2:.0f})">total cycles (Vela)</text>',
    ]
    for kib in sorted({min(sram), budget, max(sram)}):
        parts.append(f'<text x="{x(kib):.0f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{kib:,.0f}</text>')
    for value in (min(cycles), max(cycles)):
        parts.append(f'<text x="{LEFT - 6}" y="{y(value) + 4:.0f}" text-anchor="end">{value:,}</text>')
    parts.append(
        f'<line x1="{x(budget):.0f}" y1="{TOP}" x2="{x(budget):.0f}" y2="{HEIGHT - BOTTOM}" '
        f'stroke="#555" stroke-dasharray="4 3"/><text x="{x(budget) + 4:.0f}" y="{TOP + 10}">budget</text>'
    )
    return parts


def render(tuning: Mapping[str, object]) -> str:
    """Empty when no configuration has cycles and an SRAM need."""
    trials: Sequence[Mapping[str, object]] = tuning["trials"]  # type: ignore[assignment]
    shown = [(i, t) for i, t in enumerate(trials) if "total_cycles" in t and t.get("sram_need_kib")]
    if not shown:
        return ""
    sram = [float(str(t["sram_need_kib"])) for _, t in shown]
    cycles = [int(str(t["total_cycles"])) for _, t in shown]
    budget = float(str(tuning["sram_budget_kib"]))
    x = _scale(min(sram + [budget]) * 0.9, max(sram + [budget]) * 1.1, LEFT, WIDTH - RIGHT, log=True)
    y = _scale(min(cycles) * 0.97, max(cycles) * 1.03, HEIGHT - BOTTOM, TOP)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tuning" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" font-family="sans-serif" font-size="11">',
        "<title>Tuning: total cycles against SRAM needed, one point per configuration</title>",
    ]
    parts += _axes(x, y, sram, cycles, budget)
    marks = {tuning["chosen"]: (CHOSEN, "chosen"), tuning.get("untuned"): (UNTUNED, "untuned")}
    # The marked points last, on top of any configuration at the same place.
    drawn = sorted(zip(shown, sram, cycles), key=lambda entry: entry[0][0] in marks)
    for (i, t), kib, value in drawn:
        colour, label = marks.get(i, (FITS if t["fits"] else DOES_NOT_FIT, ""))
        radius = 7 if label else 4
        parts.append(
            f'<circle cx="{x(kib):.1f}" cy="{y(value):.1f}" r="{radius}" fill="{colour}" fill-opacity="0.8">'
            f"<title>{escape(configuration(t))}: {value:,} cycles, {kib:,.0f} KiB</title></circle>"
        )
        if label:
            parts.append(f'<text x="{x(kib) + 10:.0f}" y="{y(value) + 4:.0f}" fill="{colour}">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
