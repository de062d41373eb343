"""The verification as a person reads it: one row per NPU layer (the tensor
it writes), a short status mark, and each explanation said once.

The verification JSON has one entry per group of Vela layers; a tensor Vela
writes in parts between other layers (MobileNetV2's first convolutions) has
one entry per part, compared once with its last part."""

from __future__ import annotations

import dataclasses
from typing import Mapping, Sequence

# Status marks of a layer against the TOSA reference model.
EXACT = "\u2713"  # bit-exact
DIFFERS = "\u2717"  # some elements differ
READERS = "\u21bb"  # checked through the layers that read it
NOT_COMPARED = "\u2013"

COLUMNS = ["#", "module (PyTorch)", "operator", "TOSA tensor", "parts", "elements", "NPU vs TOSA", "note"]


@dataclasses.dataclass
class Table:
    rows: list[list[object]]
    notes: list[str]  # explanation n is note n + 1 in the rows
    counts: dict[str, int]  # status mark -> layers


def _status(layer: Mapping[str, object], notes: list[str]) -> tuple[str, str]:
    """(mark, note reference) of a layer's last part."""
    if layer["compared"]:
        differing = int(str(layer["differing"]))
        if not differing:
            return EXACT, ""
        histogram: Mapping[str, int] = layer["histogram"]  # type: ignore[assignment]
        return f"{DIFFERS} {differing:,}", " ".join(
            f"{int(d):+d}:{c}" for d, c in sorted(histogram.items(), key=lambda kv: int(kv[0]))
        )
    note = str(layer["note"] or "")
    if note not in notes:
        notes.append(note)
    mark = NOT_COMPARED if note.startswith("not compared") else READERS
    return mark, f"[{notes.index(note) + 1}]"


def table(report: Mapping[str, object]) -> Table:
    """One row per (partition, tensor), in the order of the tensors' last parts."""
    notes: list[str] = []
    rows: list[list[object]] = []
    counts: dict[str, int] = {}
    partitions: Sequence[Mapping[str, object]] = report["partitions"]  # type: ignore[assignment]
    for p in partitions:
        layers: Sequence[Mapping[str, object]] = p["layers"]  # type: ignore[assignment]
        parts: dict[str, int] = {}
        for layer in layers:
            parts[str(layer["tensor"])] = parts.get(str(layer["tensor"]), 0) + 1
        seen: dict[str, int] = {}
        for layer in layers:
            tensor = str(layer["tensor"])
            seen[tensor] = seen.get(tensor, 0) + 1
            if seen[tensor] < parts[tensor]:
                continue  # an earlier part: compared with the last one
            mark, note = _status(layer, notes)
            counts[mark.split()[0]] = counts.get(mark.split()[0], 0) + 1
            label = f"{p['index']}.{len(rows)}" if len(partitions) > 1 else len(rows)
            rows.append(
                [
                    label,
                    layer["module"] or "<model>",
                    layer["op"] or layer["operator"],
                    tensor,
                    parts[tensor],
                    layer["elements"] if layer["compared"] else "",
                    mark,
                    note,
                ]
            )
    return Table(rows, notes, counts)


def legend(counts: Mapping[str, int]) -> str:
    words = {
        EXACT: "bit-exact",
        DIFFERS: "differ",
        READERS: "checked through their readers",
        NOT_COMPARED: "not compared",
    }
    return ", ".join(f"{mark} {counts[mark]} {word}" for mark, word in words.items() if counts.get(mark))


PARTS_NOTE = (
    "parts: the Vela layers that write the tensor; a tensor written in parts between other layers is "
    "compared once, with its last part."
)
