"""The CI check on the headline runs' deterministic figures: each example runs
as a user runs it, and no figure recorded in bench/figures/baselines.json may
get worse. README.md and docs/benchmarks.md quote some of them; those quotes
must match the record, so the documents cannot drift from the runs."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import figures
import pytest

# The runs this target guards (bench/figures/BUILD.bazel: the everyday tier's
# and the full tier's).
RUNS = os.environ["FIGURE_RUNS"].split(",")


@pytest.mark.parametrize("run", RUNS)
def test_no_recorded_figure_got_worse(run: str) -> None:
    result = subprocess.run([f"examples/{run}.sh"], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    improvements = figures.guard(run, result.stdout)
    # Better is welcome, and shown so the record can follow it down.
    for line in improvements:
        print("improved (lower bench/figures/baselines.json):", line)


def _readme_capture() -> str:
    text = Path("README.md").read_text()
    start = text.index("    == mobilenet_v2 for ethos-u85-256 on corstone320 ==")
    return text[start : text.index("    Report: ", start)]


def test_readme_quotes_the_recorded_mv2_u85_figures() -> None:
    quoted = figures.parse("\n".join(line[4:] for line in _readme_capture().splitlines()))
    assert quoted == figures.load_baselines()["mv2_u85"]


def test_benchmarks_page_quotes_the_recorded_cpu_figures() -> None:
    page = Path("docs/benchmarks.md").read_text()
    for run in ("mv2_m55", "mv2_m33", "mv2_m4", "mv2_m7"):
        millions = figures.load_baselines()[run]["cpu_instructions"] / 1e6
        row = next(line for line in page.splitlines() if f"`//examples:{run}`" in line)
        assert re.search(rf"\b{millions:.1f} M\b", row), f"docs/benchmarks.md: {run} is {millions:.1f} M: {row}"
