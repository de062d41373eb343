"""A confusion matrix as an SVG picture, written as text (no plotting
library: run_model renders it at `bazel run` time, where matplotlib's import
would cost seconds)."""

from __future__ import annotations

from typing import Sequence
from xml.sax.saxutils import escape

CELL = 32  # px per cell: two-digit counts stay readable
MARGIN = 56  # left: room for the axis title and class labels
TOP = 28  # room for the picture's title
# Cell shade: white (0) to the full colour (all of the label's samples), by
# the share of the label's samples, so every row reads on the same scale.
FULL_RGB = (33, 102, 172)  # right answers, the diagonal
MISS_RGB = (214, 39, 40)  # wrong ones
# A single miss among hundreds would be a share of a few percent, nearly
# white: a wrong cell with any count is at least this strong.
MISS_MIN_SHARE = 0.3
DARK_TEXT_BELOW = 0.5  # share under which the count is printed in dark text


def _shade(share: float, rgb: tuple[int, int, int]) -> str:
    r, g, b = (round(255 - (255 - c) * share) for c in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


def render(matrix: Sequence[Sequence[int]], title: str, labels: Sequence[str] = ()) -> str:
    """Rows: true label, columns: predicted class; each cell its count,
    shaded by its share of the row: right answers blue, wrong ones red."""
    n = len(matrix)
    names = list(labels) or [str(i) for i in range(n)]
    width = MARGIN + n * CELL + 8
    height = TOP + n * CELL + 36
    middle_x, middle_y = MARGIN + n * CELL / 2, TOP + n * CELL / 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="confusion" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<text x="{middle_x:.0f}" y="16" text-anchor="middle" font-size="13">{escape(title)}</text>',
        f'<text x="{middle_x:.0f}" y="{height - 4}" text-anchor="middle">predicted</text>',
        f'<text x="12" y="{middle_y:.0f}" text-anchor="middle" transform="rotate(-90 12 {middle_y:.0f})">label</text>',
    ]
    for i, name in enumerate(names):
        centre = i * CELL + CELL / 2
        parts.append(
            f'<text x="{MARGIN + centre:.0f}" y="{TOP + n * CELL + 14}" text-anchor="middle">{escape(name)}</text>'
        )
        parts.append(f'<text x="{MARGIN - 6}" y="{TOP + centre + 4:.0f}" text-anchor="end">{escape(name)}</text>')
    for r, row in enumerate(matrix):
        total = sum(row) or 1
        for c, count in enumerate(row):
            share = count / total
            if r != c and count:
                share = max(share, MISS_MIN_SHARE)
            x, y = MARGIN + c * CELL, TOP + r * CELL
            fill = _shade(share, FULL_RGB if r == c else MISS_RGB)
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
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
