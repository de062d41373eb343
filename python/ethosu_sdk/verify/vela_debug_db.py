"""The layers of a Vela command stream, from Vela's debug database.

`vela --enable-debug-db` writes an XML file of CSV tables. Three of them tie
the command stream to the source graph: `queue` gives, for each scheduled
operation, a byte offset in the register command stream (observed: the
offset of its last NPU_OP_* command; a layer Vela splits into many NPU
operations, such as a U55 transpose, lists only the last), `perf` gives
each scheduled operation's kind and the name of the tensor it produces (a
TOSA tensor name when Vela compiled a TOSA graph; "#<id>" or a TOSA name
plus a suffix for a tensor Vela made up), and `tensors` gives where each
tensor lives in the arena and in which layout. `perf_debug` gives each
operation's OFM element type.

A name is not always one tensor: Vela 5.2 names the int32 intermediates of
a RESCALE it splits into ADD and MUL (U55/U65) after a TOSA tensor of
another type, so `tensors` lists that name twice and an operation's OFM
type tells which of them it writes.
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
    ofm_dtype: str = ""  # its OFM element type ("Int8", ...); "" if unrecorded


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
    ofm_types = {row["id"]: row.get("ofm_dtype", "") for row in tables.get("perf_debug", [])}
    layers = []
    for row in tables["queue"]:
        op = perf.get(row["scheduled_id"])
        if op is None:
            raise ValueError(f"{path}: queue entry for unknown operation {row['scheduled_id']}")
        scheduled = row["scheduled_id"]
        layers.append(
            Layer(int(row["offset"]), int(scheduled), op["operator"], op["name"], ofm_types.get(scheduled, ""))
        )
    return sorted(layers, key=lambda layer: layer.command_offset)


def read_placements(path: str) -> Dict[str, List[TensorPlacement]]:
    """Arena placements of the tensors Vela allocated, by name: more than one
    where Vela gave its own tensor a TOSA tensor's name."""
    tables = _tables(path)
    _require(tables, path, "tensors")
    placements: Dict[str, List[TensorPlacement]] = {}
    for row in tables["tensors"]:
        placements.setdefault(row["name"], []).append(
            TensorPlacement(int(row["start_address"], 16), int(row["size"], 16), row["format"], row["data_type"])
        )
    return placements
