"""The summary's accuracy entry as text (no torch: the run's CLI prints it)."""

from __future__ import annotations

WORST_LAYERS = 3  # the CLI names this many; the summary keeps every layer


def summary_lines(accuracy: dict) -> list[str]:
    """One line per stage, as the CLI prints them."""
    names = {
        "float": "float model",
        "quantized": "PT2E quantized graph",
        "program": "compiled program (host runner, functional NPU model)",
    }
    lines = []
    # The flow's order, whatever order the summary's JSON keeps its keys in.
    order = [stage for stage in names if stage in accuracy["stages"]]
    for stage in order + sorted(set(accuracy["stages"]) - set(order)):
        figures = accuracy["stages"][stage]
        top5 = f", top-5 {100 * figures['top5']:.2f}%" if "top5" in figures else ""
        lines.append(
            f"top-1 {100 * figures['top1']:.2f}% ({figures['correct']}/{figures['samples']}){top5}: "
            f"{names.get(stage, stage)}"
        )
    if accuracy.get("program_note"):
        lines.append(f"compiled program: {accuracy['program_note']}")
    worst = (accuracy.get("layers") or [])[:WORST_LAYERS]
    if worst:
        lines.append(
            "lowest quantization SQNR: "
            + ", ".join(f"{r['module']} ({r['module_type']}) {_db(r['sqnr_db'])}" for r in worst)
        )
    return lines


def _db(value) -> str:
    return "lossless" if value is None else f"{value:.1f} dB"
