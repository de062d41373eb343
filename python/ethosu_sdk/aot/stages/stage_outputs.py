"""Stage 7 of compile_model: the intermediates on request, and the outputs
staged and then moved into place together, only when everything succeeded."""

from __future__ import annotations

import os
import shutil

from ethosu_sdk.aot import lowering, vela_capture
from ethosu_sdk.aot.stages.stage_lower import VELA_LOG, Lowered
from ethosu_sdk.aot.targets import TargetKind

STAGED_STEM = "out"  # the outputs' name in the staging directory


def stage(staging: str, files: dict[str, bytes]) -> None:
    """Writes each output (suffix -> bytes) into the staging directory."""
    for suffix, blob in files.items():
        with open(os.path.join(staging, STAGED_STEM + suffix), "wb") as f:
            f.write(blob)


def move_into_place(staging: str, paths: dict[str, str]) -> None:
    for suffix, path in paths.items():
        os.replace(os.path.join(staging, STAGED_STEM + suffix), path)


def write_intermediates(directory: str, staging: str, lowered: Lowered) -> None:
    """TOSA flatbuffers, Vela reports and the delegation table, staged first."""
    from executorch.devtools.backend_debug import get_delegation_info

    edge, partitions = lowered.shipped.edge, lowered.shipped.partitions
    stage = os.path.join(staging, "intermediates")
    os.makedirs(stage)
    if lowered.target.kind is TargetKind.ETHOS_U:
        vela_capture.copy_reports(partitions, stage)
        shutil.copyfile(os.path.join(staging, VELA_LOG), os.path.join(stage, "vela_report.txt"))
    elif lowered.target.kind is TargetKind.TOSA:
        for index, payload in enumerate(lowering.tosa_payloads(edge)):
            with open(os.path.join(stage, f"partition{index}.tosa"), "wb") as f:
                f.write(payload)
    info = get_delegation_info(edge.exported_program().graph_module)
    with open(os.path.join(stage, "delegation.txt"), "w") as f:
        f.write(info.get_summary() + "\n")
        f.write(info.get_operator_delegation_dataframe().to_string() + "\n")
    with open(os.path.join(stage, "edge_graph.txt"), "w") as f:
        f.write(str(edge.exported_program().graph_module.graph) + "\n")
    os.makedirs(directory, exist_ok=True)
    for name in sorted(os.listdir(stage)):
        os.replace(os.path.join(stage, name), os.path.join(directory, name))
