"""Collects Vela's per-partition reports while ExecuTorch lowers a model.

ExecuTorch's Ethos-U backend writes Vela's reports only into a debug
directory named in the compile spec, and that path is then serialised into
the .pte (breaking byte-identical rebuilds) and shared by all partitions (so
later partitions overwrite earlier reports). Instead, for the duration of a
lowering, we wrap the backend's `vela_compile` so that each call compiles in
a directory of our own, keep the TOSA flatbuffer it was given, and ask Vela
for its per-layer report too. The bytes Vela produces are unchanged.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import os
import shutil
import sys
import tempfile
from typing import Iterator, Optional, cast

# Summary CSV column -> our summary key (Vela's own units in the name).
_SUMMARY_FIELDS = {
    "cycles_npu": "npu_cycles",
    "cycles_total": "total_cycles",
    "nn_macs": "macs",
    "sram_memory_used": "sram_used_kib",
    "dram_memory_used": "dram_used_kib",
    "on_chip_flash_memory_used": "on_chip_flash_used_kib",
    "off_chip_flash_memory_used": "off_chip_flash_used_kib",
    "total_npu_encoded_weights": "npu_encoded_weight_bytes",
    "inference_time": "inference_time_s",
    "core_clock": "core_clock_hz",
}
_TEXT_FIELDS = ("accelerator_configuration", "system_config", "memory_mode")


@dataclasses.dataclass
class VelaPartition:
    index: int
    tosa_flatbuffer: bytes
    figures: dict[str, object]  # from Vela's summary CSV
    files: dict[str, str]  # report file name -> path in the capture directory
    # With capture_vela(verify=True): TOSA tensor name -> origin
    # (verify_data.node_origins), and Vela's debug database.
    origins: dict[str, dict] = dataclasses.field(default_factory=dict)
    debug_db: Optional[str] = None


def _number(text: str) -> float | int:
    value = float(text)
    return int(value) if value.is_integer() else value


def read_summary_csv(path: str) -> dict[str, object]:
    with open(path, newline="") as f:
        row = next(csv.DictReader(f))
    figures: dict[str, object] = {key: row[key] for key in _TEXT_FIELDS if key in row}
    for column, key in _SUMMARY_FIELDS.items():
        if row.get(column) not in (None, ""):
            figures[key] = _number(row[column])
    return figures


@contextlib.contextmanager
def capture_vela(directory: str, verify: bool = False) -> Iterator[list[VelaPartition]]:
    """Within the block, each Vela compilation is recorded into the returned list.

    With `verify`, also what the verification step needs: each partition's
    backend graph (TOSA tensor names -> PyTorch origin) and Vela's debug
    database (`--enable-debug-db` changes no byte of Vela's output; the
    verification step checks the command stream it maps against the .pte's)."""
    from executorch.backends.arm.ethosu import backend as ethosu_backend

    from ethosu_sdk.aot import verify_data
    from ethosu_sdk.aot.workarounds import vela_refusals, vela_workarounds

    original = ethosu_backend.vela_compile
    partitions: list[VelaPartition] = []
    pending: dict[str, dict] = {}  # origins of the graph being lowered

    def record_origins(graph_module) -> None:
        pending.update(verify_data.node_origins(graph_module))

    def recording_vela_compile(tosa_flatbuffer, args, verbose=False, intermediate_path=None, block_placements=None):
        index = len(partitions)
        vela_refusals.check(index, tosa_flatbuffer)  # before Vela: a known miscompilation fails the build
        work = os.path.join(directory, f"partition{index}")
        os.makedirs(work, exist_ok=True)
        # A copy: vela_compile appends to the list it is given.
        flags = list(args) + ["--verbose-performance"] + (["--enable-debug-db"] if verify else [])
        result = original(
            tosa_flatbuffer, flags, verbose=False, intermediate_path=work, block_placements=block_placements
        )
        _check_outputs_kept(index, tosa_flatbuffer, os.path.join(work, "output", "out_vela.npz"))
        files = csv_files(os.path.join(work, "output"))
        summary = summary_csv(files)
        figures = read_summary_csv(summary) if summary else {}
        debug_db = os.path.join(work, "output", "out_debug.xml")
        partitions.append(
            VelaPartition(
                index,
                bytes(tosa_flatbuffer),
                figures,
                files,
                dict(pending),
                debug_db if os.path.exists(debug_db) else None,
            )
        )
        pending.clear()
        return result

    ethosu_backend.vela_compile = recording_vela_compile
    try:
        with vela_workarounds.after_backend_pipeline(record_origins) if verify else contextlib.nullcontext():
            yield partitions
    finally:
        ethosu_backend.vela_compile = original


class VelaOutputError(RuntimeError):
    """Vela's program has fewer outputs than the TOSA graph it was given."""


def _check_outputs_kept(index: int, tosa_flatbuffer: bytes, npz_path: str) -> None:
    """Fails the lowering when Vela's program lists fewer outputs than the
    partition's TOSA graph: the delegate call would pass more arguments than
    the payload takes, which the runtime can only refuse (vela_workarounds.py,
    LOST_OUTPUT, avoids the one known cause)."""
    import numpy as np
    from tosa.TosaGraph import TosaGraph

    block = TosaGraph.GetRootAs(tosa_flatbuffer, 0).Regions(0).Blocks(0)
    expected = [block.Outputs(i).decode() for i in range(block.OutputsLength())]
    if not os.path.exists(npz_path):
        return  # Vela failed and said why
    with np.load(npz_path, allow_pickle=False) as data:
        produced = len(data["output_shape"])
    if produced != len(expected):
        raise VelaOutputError(
            f"Vela's program for partition {index} has {produced} output(s) where its TOSA graph has "
            f"{len(expected)} ({', '.join(expected)}): Vela dropped a partition output; "
            "please report the model (the TOSA graph is in --intermediates_dir)"
        )


@contextlib.contextmanager
def stdout_to_file(path: str) -> Iterator[None]:
    """Sends fd 1 (Python and native writers alike) to `path` within the block:
    Vela prints its full report to stdout, which would bury our progress."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(path, "ab") as sink:
        os.dup2(sink.fileno(), 1)
        try:
            yield
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


def csv_files(output_dir: str) -> dict[str, str]:
    """Vela's CSV reports in its output directory: file name -> path."""
    if not os.path.isdir(output_dir):
        return {}
    return {name: os.path.join(output_dir, name) for name in sorted(os.listdir(output_dir)) if name.endswith(".csv")}


def summary_csv(files: dict[str, str]) -> Optional[str]:
    """The summary among csv_files (named after the system config), or None."""
    return next((path for name, path in files.items() if "_summary_" in name), None)


def total_figures(partitions: list[VelaPartition]) -> dict[str, object]:
    """Sums additive figures over partitions (SRAM use is a maximum)."""
    return total_of([p.figures for p in partitions])


def total_of(figures: list[dict[str, object]]) -> dict[str, object]:
    """total_figures over figure dictionaries."""
    total: dict[str, object] = {}
    for partition in figures:
        for key, value in partition.items():
            if not isinstance(value, (int, float)) or key in ("core_clock_hz",):
                continue
            if key == "sram_used_kib":
                total[key] = max(cast(float, total.get(key, 0)), value)
            else:
                total[key] = total.get(key, 0) + value  # type: ignore[operator]
    return total


def copy_reports(partitions: list[VelaPartition], destination: str) -> list[str]:
    """Copies each partition's TOSA flatbuffer and Vela CSVs to `destination`."""
    written = []
    os.makedirs(destination, exist_ok=True)
    for p in partitions:
        tosa = os.path.join(destination, f"partition{p.index}.tosa")
        with open(tosa, "wb") as f:
            f.write(p.tosa_flatbuffer)
        written.append(tosa)
        for name, path in p.files.items():
            target = os.path.join(destination, f"partition{p.index}_vela_{name}")
            shutil.copyfile(path, target)
            written.append(target)
    return written


def new_capture_dir(parent: Optional[str] = None) -> str:
    return tempfile.mkdtemp(prefix="vela-", dir=parent)
