"""A run report's layout as a real browser lays it out: the headless
Chromium the bootstrap installs opens a copy of the page with every
<details> opened and measures it, and writes what it measured into the DOM
that `--dump-dom` prints."""

from __future__ import annotations

import dataclasses
import html
import json
import os
import re
import subprocess

CHROMIUM = "chromium-headless-shell"

# Measures after `load`: the page's width against the window's, the
# elements that reach past the window's right edge (a table cell that
# overflows, or anything inside a box that scrolls sideways), and the cells
# of the table that follows the heading starting with TABLE_AFTER.
_MEASURE = """
<script>
window.addEventListener('load', () => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const width = window.innerWidth;
  const past = [...document.body.querySelectorAll('*')]
    .filter(e => e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ': ' + (e.textContent || '').trim().slice(0, 60));
  const order = [...document.querySelectorAll('h2, table')];
  const heading = order.findIndex(e => e.tagName === 'H2' && e.textContent.startsWith(TABLE_AFTER));
  const table = heading < 0 ? null : order.slice(heading + 1).find(e => e.tagName === 'TABLE');
  const rows = table ? [...table.rows] : [];
  const out = document.createElement('pre');
  out.id = 'layout-measured';
  out.textContent = JSON.stringify({
    window_width: width,
    scroll_width: document.documentElement.scrollWidth,
    past_right_edge: past,
    header: rows.length ? [...rows[0].cells].map(c => c.textContent.trim()) : [],
    rows: rows.slice(1).map(r => [...r.cells].map(c => c.textContent.trim())),
  });
  document.body.append(out);
});
</script>
"""


@dataclasses.dataclass(frozen=True)
class Layout:
    window_width: int
    scroll_width: int
    past_right_edge: list[str]  # elements reaching past the window's right edge
    header: list[str]  # the measured table's header cells
    rows: list[list[str]]  # and its other rows' cells

    def column(self, name: str) -> list[str]:
        index = self.header.index(name)
        return [row[index] for row in self.rows]


def dump_dom(url: str, profile_dir: str, width: int = 1280, height: int = 1000) -> str:
    """The DOM after `load`, laid out in a window `width` pixels wide."""
    return subprocess.run(
        [
            CHROMIUM,
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--hide-scrollbars",
            f"--window-size={width},{height}",
            f"--user-data-dir={profile_dir}",
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout


def measure(page: str, work_dir: str, table_after: str, width: int = 1280) -> Layout:
    """Lays out a copy of `page` (a self-contained report: its charts are
    inlined) in a window `width` pixels wide."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    probe = _MEASURE.replace("TABLE_AFTER", json.dumps(table_after))
    copy = os.path.join(work_dir, "layout.html")
    with open(copy, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", probe + "</body>"))
    dom = dump_dom(f"file://{copy}", os.path.join(work_dir, "chromium"), width)
    found = re.search(r'<pre id="layout-measured">(.*?)</pre>', dom, re.DOTALL)
    if found is None:
        raise AssertionError(f"the page did not run its measurement: {dom[-2000:]}")
    return Layout(**json.loads(html.unescape(found.group(1))))
