"""Reads Vela's per-layer performance CSV (`--verbose-performance`)."""

from __future__ import annotations

import csv
import dataclasses

from ethosu_sdk.errors import SdkError


@dataclasses.dataclass(frozen=True)
class Layer:
    name: str  # the TOSA operator's name
    operator: str  # Vela's operator kind (Conv2D, DepthwiseConv2D, ...)
    target: str  # NPU or CPU
    cycles: int  # estimated NPU cycles of this operator
    macs: int
    mac_utilisation: float  # percent of the configuration's peak MACs/cycle
    sram_accesses: int  # Vela's access counts per memory
    dram_accesses: int
    staging_bytes: int  # SRAM staging use


# Column names as Vela 5.1 writes them.
_COLUMNS = {
    "name": "Name",
    "operator": "Original Operator",
    "target": "Target",
    "cycles": "Op Cycles",
    "macs": "MAC Count",
    "mac_utilisation": "Util% (MAC)",
    "sram_accesses": "SRAM AC",
    "dram_accesses": "DRAM AC",
    "staging_bytes": "Staging Usage",
}


class VelaCsvError(SdkError, ValueError):
    pass


def read(path: str) -> list[Layer]:
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in _COLUMNS.values() if c not in (reader.fieldnames or [])]
        if missing:
            raise VelaCsvError(f"{path}: not a Vela per-layer CSV (missing columns {missing})")
        layers = []
        for row in reader:
            layers.append(
                Layer(
                    name=row[_COLUMNS["name"]],
                    operator=row[_COLUMNS["operator"]],
                    target=row[_COLUMNS["target"]],
                    cycles=int(float(row[_COLUMNS["cycles"]])),
                    macs=int(float(row[_COLUMNS["macs"]])),
                    mac_utilisation=float(row[_COLUMNS["mac_utilisation"]]),
                    sram_accesses=int(float(row[_COLUMNS["sram_accesses"]])),
                    dram_accesses=int(float(row[_COLUMNS["dram_accesses"]])),
                    staging_bytes=int(float(row[_COLUMNS["staging_bytes"]])),
                )
            )
    return layers
