"""A confusion matrix as an SVG picture, written as text (no plotting
library: run_model renders it at `bazel run` time, where matplotlib's import
would cost seconds)."""

from __future__ import annotations

from typing import Sequence
from xml.sax.saxutils import escape

CELL = 32  # px per cell: two-digit counts stay readable
MARGIN = 56  # room for the axis titles and class labels
# Cell shade: white (0) to this blue (the row's largest share), by the share
# of the label's samples, so every row reads on the same scale.
FULL_RGB = (33, 102, 172)
DARK_TEXT_BELOW = 0.5  # share under which the count is printed in dark text


def _shade(share: float) -> str:
    r, g, b = (round(255 - (255 - c) * share) for c in FULL_RGB)
    return f"#{r:02x}{g:02x}{b:02x}"


def render(matrix: Sequence[Sequence[int]], title: str, labels: Sequence[str] = ()) -> str:
    """Rows: true label, columns: predicted class; each cell its count,
    shaded by its share of the row."""
    n = len(matrix)
    names = list(labels) or [str(i) for i in range(n)]
    size = MARGIN + n * CELL + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="confusion" width="{size}" height="{size + 24}" '
        f'viewBox="0 0 {size} {size + 24}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<text x="{size / 2:.0f}" y="14" text-anchor="middle" font-size="13">{escape(title)}</text>',
        f'<text x="{MARGIN + n * CELL / 2:.0f}" y="{size + 20}" text-anchor="middle">predicted</text>',
        f'<text x="12" y="{MARGIN + n * CELL / 2:.0f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {MARGIN + n * CELL / 2:.0f})">label</text>',
    ]
    for i, name in enumerate(names):
        centre = MARGIN + i * CELL + CELL / 2
        parts.append(f'<text x="{centre:.0f}" y="{MARGIN + n * CELL + 14}" text-anchor="middle">{escape(name)}</text>')
        parts.append(f'<text x="{MARGIN - 6}" y="{centre + 4:.0f}" text-anchor="end">{escape(name)}</text>')
    for r, row in enumerate(matrix):
        total = sum(row) or 1
        for c, count in enumerate(row):
            share = count / total
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{_shade(share)}" '
                f'stroke="{"#222" if r == c else "#ccc"}"><title>label {escape(names[r])}, predicted '
                f"{escape(names[c])}: {count}</title></rect>"
            )
            if count:
                colour = "#222" if share < DARK_TEXT_BELOW else "#fff"
                parts.append(
                    f'<text x="{x + CELL / 2:.0f}" y="{y + CELL / 2 + 4:.0f}" text-anchor="middle" '
                    f'fill="{colour}">{count}</text>'
                )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
