"""The layers of a Vela command stream, from Vela's debug database.

`vela --enable-debug-db` writes an XML file of CSV tables. Three of them tie
the command stream to the source graph: `queue` gives, for each scheduled
operation, a byte offset in the register command stream (observed: the
offset of its last NPU_OP_* command; a layer Vela splits into many NPU
operations, such as a U55 transpose, lists only the last), `perf` gives
each scheduled operation's kind and the name of the tensor it produces (a
TOSA tensor name when Vela compiled a TOSA graph; "#<id>" or a TOSA name
plus a suffix for a tensor Vela made up), and `tensors` gives where each
tensor lives in the arena and in which layout.
"""

import csv
import dataclasses
import io
import xml.etree.ElementTree as ElementTree
from typing import Dict, List


@dataclasses.dataclass(frozen=True)
class Layer:
    command_offset: int  # of its last NPU operation, bytes into the command stream
    scheduled_id: int
    operator: str  # Vela's name for the operation (Conv2D, Add, ...)
    tensor: str  # the tensor the operation produces


@dataclasses.dataclass(frozen=True)
class TensorPlacement:
    start: int  # byte offset in the arena
    size: int
    layout: str  # "NHWC" or "NHCWB16"
    dtype: str  # "Int8", "Int16", ...


def _tables(path: str) -> Dict[str, List[Dict[str, str]]]:
    root = ElementTree.parse(path).getroot()
    tables = {}
    for table in root.findall("table"):
        rows = list(csv.DictReader(io.StringIO((table.text or "").strip())))
        tables[table.get("name", "")] = rows
    return tables


def _require(tables: Dict[str, List[Dict[str, str]]], path: str, *names: str) -> None:
    for name in names:
        if name not in tables:
            raise ValueError(f"{path}: no '{name}' table (was Vela run with --enable-debug-db?)")


def read_layers(path: str) -> List[Layer]:
    """Layers in command-stream order."""
    tables = _tables(path)
    _require(tables, path, "queue", "perf")
    perf = {row["id"]: row for row in tables["perf"]}
    layers = []
    for row in tables["queue"]:
        op = perf.get(row["scheduled_id"])
        if op is None:
            raise ValueError(f"{path}: queue entry for unknown operation {row['scheduled_id']}")
        layers.append(Layer(int(row["offset"]), int(row["scheduled_id"]), op["operator"], op["name"]))
    return sorted(layers, key=lambda layer: layer.command_offset)


def read_placements(path: str) -> Dict[str, TensorPlacement]:
    """Arena placement of each tensor Vela allocated, by name."""
    tables = _tables(path)
    _require(tables, path, "tensors")
    return {
        row["name"]: TensorPlacement(
            int(row["start_address"], 16), int(row["size"], 16), row["format"], row["data_type"]
        )
        for row in tables["tensors"]
    }
