"""One cell's result read from its runs' output (bench/figures/figures.py's
patterns), and the Markdown tables of bench/RESULTS.md."""

from __future__ import annotations

import dataclasses
import re

import figures
from cells import Target
from published import BY_TARGET, PUBLISHED, SOURCE

# Lines of run_model's output figures.py does not read: the run's verdict,
# its output check, the RAM it needed in all and the NPU's SRAM scratch.
_VERDICT = re.compile(r"^\s+(PASS|FAIL): (.*)$", re.MULTILINE)
_OUTPUT_CHECK = re.compile(r"^\s+output (\d+)(?: \([^)]*\))?: (\d+)/(\d+) ([^,]+), (\d+) bit-exact", re.MULTILINE)
_RAM_TOTAL = figures.Figure("ram_total_bytes", r"^\s+RAM: total ([\d,]+) bytes")
NO_VERDICT = "the run printed no verdict"
_FAST_SCRATCH = figures.Figure("fast_scratch_bytes", r"NPU fast scratch \(SRAM\) ([\d,]+) bytes")


@dataclasses.dataclass(frozen=True)
class Check:
    """One run's verdict against one reference."""

    reference: str  # what the outputs were compared with
    passed: bool
    detail: str  # "12/12 within one quantization step, 12 bit-exact", or why it failed


def check(reference: str, output: str) -> Check:
    """The verdict `output` (one run_model run) printed; FAIL when it printed none."""
    verdict = _VERDICT.search(output)
    if verdict is None:
        return Check(reference, False, NO_VERDICT)
    outputs = [
        f"{within}/{elements} {rule}, {exact} bit-exact"
        for _, within, elements, rule, exact in _OUTPUT_CHECK.findall(output)
    ]
    passed = verdict.group(1) == "PASS"
    return Check(reference, passed, "; ".join(outputs) if passed and outputs else verdict.group(2))


def cell_figures(output: str) -> dict[str, int]:
    """figures.parse plus the RAM total and the NPU's SRAM scratch."""
    found = figures.parse(output)
    for extra in (_RAM_TOTAL, _FAST_SCRATCH):
        value = extra.find(output)
        if value is not None:
            found[extra.name] = value
    return found


def runtime_text_bytes(size_a: str) -> int:
    """Code and constants of the firmware less the embedded .pte and
    reference tensors (`size -A` output; `.ddr_rodata` holds the blobs):
    .vectors, .text, .ARM.exidx and .data's load image."""
    sizes = {}
    for line in size_a.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0].startswith(".") and fields[1].isdigit():
            sizes[fields[0]] = int(fields[1])
    if ".text" not in sizes:
        raise ValueError("no .text section in the size tool's output")
    return sum(sizes.get(name, 0) for name in (".vectors", ".text", ".ARM.exidx", ".data"))


@dataclasses.dataclass
class Cell:
    model: str
    target: Target
    commands: list[str]
    checks: list[Check] = dataclasses.field(default_factory=list)
    figures: dict[str, int] = dataclasses.field(default_factory=dict)
    runtime_text: int | None = None
    error: str | None = None  # the build or the run did not complete

    @property
    def passed(self) -> bool:
        return self.error is None and bool(self.checks) and all(c.passed for c in self.checks)

    @property
    def flash(self) -> int | None:
        pte = self.figures.get("pte_bytes")
        return pte + self.runtime_text if pte is not None and self.runtime_text is not None else None

    @property
    def ram(self) -> int | None:
        total = self.figures.get("ram_total_bytes")
        return None if total is None else total + self.figures.get("fast_scratch_bytes", 0)


def _count(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def _kib(n: int | None) -> str:
    return "-" if n is None else f"{n / 1024:,.1f} KiB"


def _millions(n: float | None) -> str:
    return "-" if n is None else f"{n / 1e6:.2f} M"


def result_table(cells: list[Cell]) -> str:
    """Every cell: its verdict and figures, exact (each is deterministic)."""
    lines = [
        "| model | target (board) | result | CPU instructions / inference | NPU cycles, Vela | NPU cycles, PMU "
        "| flash (.pte + runtime) | peak RAM |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        result = "PASS" if c.passed else "**FAIL**"
        lines.append(
            f"| {c.model} | {c.target.name} ({c.target.board}) | {result} | "
            f"{_count(c.figures.get('cpu_instructions'))} | {_count(c.figures.get('vela_cycles'))} | "
            f"{_count(c.figures.get('npu_pmu_cycles'))} | {_kib(c.flash)} | {_kib(c.ram)} |"
        )
    return "\n".join(lines)


def checks_table(cells: list[Cell]) -> str:
    """What each cell's PASS compared (one column per reference), and how closely it matched."""
    references = list(dict.fromkeys(k.reference for c in cells for k in c.checks)) or ["the reference"]
    lines = [
        "| model | target | " + " | ".join(f"against {r}" for r in references) + " |",
        "|---|---|" + "---|" * len(references),
    ]
    for c in cells:
        by_reference = {k.reference: k for k in c.checks}
        row = [
            (f"{'PASS' if k.passed else '**FAIL**'}: {k.detail}" if k else "-")
            for k in (by_reference.get(r) for r in references)
        ]
        if c.error:
            row = [f"**{c.error}**"] + row[1:]
        lines.append(f"| {c.model} | {c.target.name} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def published_comparison(cells: list[Cell], models: list[str]) -> str:
    """Our instructions per inference beside the published cycles, per core."""
    by_cell = {(c.model, c.target.name): c for c in cells}
    lines = [
        "| core | " + " | ".join(f"{m}: ours (instructions) / published (cycles)" for m in models) + " |",
        "|---|" + "---|" * len(models),
    ]
    for p in PUBLISHED:
        row = []
        for model in models:
            cell = by_cell.get((model, p.target))
            ours = cell.figures.get("cpu_instructions") if cell else None
            ratio = f" ({ours / (p.mcycles[model] * 1e6):.1f}x)" if ours else ""
            row.append(f"{_millions(ours)} / {p.mcycles[model]:g} M{ratio}")
        lines.append(f"| {p.target} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def published_table(models: list[str]) -> str:
    lines = [
        "| core | board, clock | best stack | " + " | ".join(models) + " |",
        "|---|---|---|" + "---|" * len(models),
    ]
    for p in PUBLISHED:
        lines.append(
            f"| {p.target} | {p.board} | {p.stack} | " + " | ".join(f"{p.mcycles[m]:g} M" for m in models) + " |"
        )
    return "\n".join(lines) + f"\n\nSource: {SOURCE}."


def commands(cells: list[Cell]) -> str:
    lines = []
    for c in cells:
        lines += [f"    {command}" for command in c.commands]
    return "\n".join(lines)


def markdown(cells: list[Cell], models: list[str]) -> str:
    """The whole write-up the bench prints: results, checks, comparison, commands."""
    compared = [m for m in models if any(m in p.mcycles for p in PUBLISHED)]
    parts = [
        result_table(cells),
        "What each cell's PASS compared:\n\n" + checks_table(cells),
    ]
    if any(c.target.name in BY_TARGET for c in cells):
        parts.append(
            "Beside the published figures (instructions under QEMU -icount against cycles on silicon; "
            "ours / theirs in parentheses):\n\n" + published_comparison(cells, compared)
        )
    parts.append("Published:\n\n" + published_table(compared))
    parts.append("Each figure's command (from the workspace):\n\n" + commands(cells))
    return "\n\n".join(parts) + "\n"
