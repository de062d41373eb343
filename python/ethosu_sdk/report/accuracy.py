"""The report's accuracy section: top-1 and top-5 per stage from the summary's
`accuracy` entry (python/ethosu_sdk/evaluate; top-5 of the compiled program
from its per-sample scores (program_scores.py) where the summary has none),
the confusion matrix of the compiled program from those scores, and
the per-layer quantization error, worst first, with each module's source line
from the verification report."""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Optional, Sequence

# Top-5 says something only when five classes are a small part of them.
TOP5_MIN_CLASSES = 10
TOP_K = 5

STAGE_NAMES = {
    "float": "float model",
    "quantized": "PT2E quantized graph",
    "program": "compiled program (host runner, functional NPU model)",
}


@dataclasses.dataclass
class Section:
    source: str
    samples: int
    classes: int
    # stage name, top-1 %, correct/samples, top-5 % or "" where not measured
    stages: list[tuple[str, str, str, str]]
    # module, type, source line, SQNR dB, cumulative SQNR dB, elements
    layers: list[tuple[str, str, str, str, str, int]]
    confusion: Optional[list[list[int]]]  # rows: label, columns: predicted
    notes: list[str]


def ranked(scores: Sequence[float]) -> list[int]:
    """Class indices by score, highest first; ties keep the lower index first,
    as argmax does (the evaluation's top-1)."""
    return sorted(range(len(scores)), key=lambda c: (-scores[c], c))


def top_k(samples: Sequence[Mapping[str, Any]], k: int) -> int:
    """How many samples have their label among the k best scores."""
    return sum(int(s["label"] in ranked(s["scores"])[:k]) for s in samples)


def confusion_matrix(samples: Sequence[Mapping[str, Any]], classes: int) -> list[list[int]]:
    matrix = [[0] * classes for _ in range(classes)]
    for s in samples:
        matrix[s["label"]][ranked(s["scores"])[0]] += 1
    return matrix


def module_sources(verification: Optional[Mapping[str, Any]]) -> dict[str, str]:
    """PyTorch module path -> its source line, from the verification's layers."""
    sources: dict[str, str] = {}
    for partition in (verification or {}).get("partitions", []):
        for layer in partition["layers"]:
            if layer.get("module") and layer.get("source"):
                sources.setdefault(layer["module"], layer["source"])
    return sources


def _percent(correct: int, samples: int) -> str:
    return f"{100.0 * correct / samples:.2f}%"


def _db(value: Optional[float]) -> str:
    return "lossless" if value is None else f"{value:.1f}"


def _source_of(module: str, sources: Mapping[str, str]) -> str:
    """A module's own line, else the line of the nearest module under the same
    parent (a ReLU fused into its convolution has no TOSA layer of its own;
    the verification names the model's line that calls the parent)."""
    if module in sources:
        return sources[module]
    parent = module.rpartition(".")[0]
    while parent:
        sibling = next((m for m in sorted(sources) if m.startswith(parent + ".")), None)
        if sibling:
            return f"{sources[sibling]} (as {sibling})"
        parent = parent.rpartition(".")[0]
    return ""


def section(
    accuracy: Mapping[str, Any],
    scores: Optional[Mapping[str, Any]] = None,
    verification: Optional[Mapping[str, Any]] = None,
) -> Section:
    """The section from the summary's `accuracy`, the program's per-sample
    scores (optional) and the verification report (optional)."""
    classes = int(accuracy["classes"])
    program_samples = list((scores or {}).get("samples", []))
    notes = []
    if program_samples and len(program_samples) != accuracy["samples"]:
        notes.append(
            f"the program's per-sample scores cover {len(program_samples)} samples, the summary "
            f"{accuracy['samples']}: top-5 and the confusion matrix are left out"
        )
        program_samples = []
    if program_samples:
        # The same program on the same samples: its top-1 must be the summary's.
        program = accuracy["stages"].get("program")
        correct = top_k(program_samples, 1)
        if program is not None and program["correct"] != correct:
            notes.append(
                f"the program's per-sample scores give top-1 {correct}/{len(program_samples)}, "
                f"the summary {program['correct']}/{program['samples']}: they come from different builds"
            )
    order = [s for s in STAGE_NAMES if s in accuracy["stages"]]
    order += sorted(set(accuracy["stages"]) - set(order))
    stages = []
    for stage in order:
        figures = accuracy["stages"][stage]
        top5 = ""
        if "top5_correct" in figures:  # the evaluation's, where the model has enough classes
            top5 = _percent(figures["top5_correct"], figures["samples"])
        elif classes >= TOP5_MIN_CLASSES and stage == "program" and program_samples:
            top5 = _percent(top_k(program_samples, TOP_K), len(program_samples))
        stages.append(
            (
                STAGE_NAMES.get(stage, stage),
                _percent(figures["correct"], figures["samples"]),
                f"{figures['correct']}/{figures['samples']}",
                top5,
            )
        )
    if accuracy.get("program_note"):
        notes.append(f"compiled program: {accuracy['program_note']}")
    if any(not top5 for _, _, _, top5 in stages) and any(top5 for _, _, _, top5 in stages):
        notes.append(
            "top-5 is measured on the compiled program's scores only: the summary, from an "
            "earlier SDK, keeps top-1 alone for the other stages"
        )
    sources = module_sources(verification)
    layers = [
        (
            row["module"],
            row["module_type"],
            _source_of(row["module"], sources),
            _db(row["sqnr_db"]),
            _db(row.get("cumulative_sqnr_db")),
            int(row["elements"]),
        )
        for row in (accuracy.get("layers") or [])
    ]
    return Section(
        source=str(accuracy["source"]),
        samples=int(accuracy["samples"]),
        classes=classes,
        stages=stages,
        layers=layers,
        confusion=confusion_matrix(program_samples, classes) if program_samples else None,
        notes=notes,
    )


WORST_LAYERS = 3  # the CLI names this many; the report lists them all


def lines(s: Section) -> list[str]:
    """The section as the run's CLI prints it."""
    out = []
    for name, top1, counts, top5 in s.stages:
        out.append(f"top-1 {top1} ({counts}){f', top-5 {top5}' if top5 else ''}: {name}")
    if s.layers:
        out.append(
            "lowest quantization SQNR: "
            + ", ".join(
                f"{m} ({t}{', ' + src if src else ''}) {db}{'' if db == 'lossless' else ' dB'}"
                for m, t, src, db, _, _ in s.layers[:WORST_LAYERS]
            )
        )
    if s.confusion is not None:
        worst = _most_confused(s.confusion)
        if worst:
            out.append(f"most confused (compiled program): label {worst[0]} taken for {worst[1]} {worst[2]} time(s)")
    return out + s.notes


def _most_confused(matrix: Sequence[Sequence[int]]) -> Optional[tuple[int, int, int]]:
    off = [(matrix[r][c], -r, -c) for r in range(len(matrix)) for c in range(len(matrix)) if r != c]
    count, r, c = max(off, default=(0, 0, 0))
    return (-r, -c, count) if count else None
