"""Builds and runs the MLPerf Tiny cells (cells.bzl) and writes the table and
the chart. Run from the workspace's host shell (it calls tools/bazel):

    bench/mlperf_tiny/run.sh [--models=ds_cnn_kws,...] [--targets=m4,u85,...]

Each cell runs as `tools/bazel run //bench/mlperf_tiny:<model>_<target>`
(run_model: the verdict against the SDK's reference and every figure); a
Cortex-M cell runs a second time against PyTorch's quantized graph
(`<model>_quantized_graph`), since its own reference is the graph after
ExecuTorch's cortex_m passes. Exits 1 naming the cells that failed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import cells
import chart
import table
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_list("models", None, "Models to run (default: all four).")
flags.DEFINE_list("targets", None, "Targets to run, by short name (m4, u85) or full (cortex-m4); default: all eight.")
flags.DEFINE_string("out", "bazel-reports/mlperf_tiny/table.md", "Where to write the Markdown (workspace-relative).")
flags.DEFINE_string("svg", "docs/mlperf_tiny.svg", "Where to write the chart (workspace-relative).")
flags.DEFINE_integer("jobs", 2, "Bazel's parallel actions.")
flags.DEFINE_string("size_tool", "size", "Prints an ELF's sections (`size -A`; GNU size reads Arm ELF files).")

PACKAGE = "//bench/mlperf_tiny"
# The references a cell's outputs are checked against (table.checks_table's
# columns); bench/RESULTS.md says what each is.
PYTORCH_REFERENCE = "PyTorch's quantized graph"
LOWERED_REFERENCE = "the lowered graph (cortex_m reference operators)"


class SelectionError(ValueError):
    pass


def select(models: list[str], targets: list[cells.Target]) -> tuple[list[str], list[cells.Target]]:
    """The flags' subsets, in the table's order."""
    chosen_models = FLAGS.models or models
    unknown = sorted(set(chosen_models) - set(models))
    if unknown:
        raise SelectionError(f"--models: unknown {', '.join(unknown)}; the models are {', '.join(models)}")
    wanted = FLAGS.targets or [t.short for t in targets]
    names = {t.short for t in targets} | {t.name for t in targets}
    unknown = sorted(set(wanted) - names)
    if unknown:
        raise SelectionError(
            f"--targets: unknown {', '.join(unknown)}; the targets are {', '.join(t.short for t in targets)} "
            f"({', '.join(t.name for t in targets)})"
        )
    return [m for m in models if m in chosen_models], [t for t in targets if t.short in wanted or t.name in wanted]


def bazel(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["tools/bazel", *args], capture_output=True, text=True)


def _why(result: subprocess.CompletedProcess[str]) -> str:
    """The first error line of a failed Bazel or run_model call."""
    for line in (result.stderr + result.stdout).splitlines():
        if line.startswith("ERROR:") or "error:" in line:
            return re.sub(r"\s+", " ", line.strip())[:300]
    return f"exit status {result.returncode}"


def run_cell(model: str, target: cells.Target, bin_dir: Path, logs: Path) -> table.Cell:
    name = cells.cell_name(model, target)
    label = f"{PACKAGE}:{name}"
    reference = bin_dir / "bench/mlperf_tiny" / f"{model}.quantized_graph.tensors"
    elf = bin_dir / "bench/mlperf_tiny" / f"{name}_firmware.elf"
    # An Ethos-U program's own reference is PyTorch's quantized graph
    # (EthosUQuantizer); a Cortex-M program's is the graph after the
    # cortex_m passes, so it is checked against CortexMQuantizer's graph too.
    runs: list[tuple[str, list[str]]] = [(PYTORCH_REFERENCE if target.npu else LOWERED_REFERENCE, [])]
    if not target.npu:
        runs.append((PYTORCH_REFERENCE, [f"--expected={reference}"]))
    cell = table.Cell(model, target, commands=[])
    for index, (what, extra) in enumerate(runs):
        args = ["run", f"--jobs={FLAGS.jobs}", label] + (["--", *extra] if extra else [])
        shown = " ".join(["tools/bazel", "run", *args[2:]])
        cell.commands.append(shown.replace(str(bin_dir), "$(tools/bazel info bazel-bin)"))
        result = bazel(*args)
        (logs / f"{name}.{index}.log").write_text(result.stdout + result.stderr)
        verdict = table.check(what, result.stdout)
        if verdict.detail == table.NO_VERDICT:  # the build or the simulator failed: say why
            cell.error = _why(result)
            return cell
        cell.checks.append(verdict)
        if index == 0:
            cell.figures = table.cell_figures(result.stdout)
    sizes = subprocess.run([FLAGS.size_tool, "-A", str(elf)], capture_output=True, text=True)
    if sizes.returncode == 0:
        cell.runtime_text = table.runtime_text_bytes(sizes.stdout)
        cell.commands.append(f"{FLAGS.size_tool} -A bazel-bin/bench/mlperf_tiny/{name}_firmware.elf")
    return cell


def build(models: list[str], targets: list[cells.Target]) -> None:
    """Everything at once (the lowerings in parallel); a cell that fails to build fails when it runs."""
    labels = [f"{PACKAGE}:{cells.cell_name(m, t)}" for m in models for t in targets]
    if any(not t.npu for t in targets):
        labels += [f"{PACKAGE}:{m}_quantized_graph" for m in models]
    print(f"building {len(labels)} targets (--jobs={FLAGS.jobs}) ...", flush=True)
    result = bazel("build", "--keep_going", f"--jobs={FLAGS.jobs}", *labels)
    if result.returncode != 0:
        print(f"  some failed to build: {_why(result)}", flush=True)


def main(argv: list[str]) -> int:
    del argv
    os.chdir(Path(__file__).resolve().parents[2])  # the workspace: tools/bazel and the outputs' paths
    all_models, all_targets = cells.load()
    try:
        models, targets = select(all_models, all_targets)
    except SelectionError as e:
        print(f"bench: error: {e}", file=sys.stderr)
        return 2
    build(models, targets)
    bin_dir = Path(bazel("info", "bazel-bin").stdout.strip())
    logs = Path("bazel-reports/mlperf_tiny")
    logs.mkdir(parents=True, exist_ok=True)
    results = []
    for i, (model, target) in enumerate([(m, t) for m in models for t in targets], 1):
        cell = run_cell(model, target, bin_dir, logs)
        status = "PASS" if cell.passed else f"FAIL ({cell.error or '; '.join(c.detail for c in cell.checks)})"
        figure = cell.figures.get("vela_cycles" if target.npu else "cpu_instructions")
        shown = f"{figure:,} {'NPU cycles (Vela)' if target.npu else 'CPU instructions'}" if figure else "no figure"
        print(f"[{i}/{len(models) * len(targets)}] {model} on {target.name}: {status}, {shown}", flush=True)
        results.append(cell)
    Path(FLAGS.out).write_text(table.markdown(results, models))
    Path(FLAGS.svg).write_text(chart.svg(results, models))
    print(f"wrote {FLAGS.out} and {FLAGS.svg}; run logs in {logs}/")
    failed = [f"{c.model} on {c.target.name}" for c in results if not c.passed]
    if failed:
        print(f"bench: error: {len(failed)} of {len(results)} cells failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    app.run(main)
