"""ethosu_model's verification: every Ethos-U delegate of a .pte, bit for bit
against the TOSA reference model, layer by layer, named by PyTorch origin.

Inputs: the .pte (the payloads that ship) and the AOT step's `<name>.verify/`
directory (python/ethosu_sdk/aot/verify_data.py: each partition's TOSA
graph, the delegate's integer inputs for the example input, Vela's debug
database, TOSA tensor name -> PyTorch origin). For each partition the payload
runs on the functional NPU model (sim/host:npu_run, which also records
every NPU operation's output) and the TOSA graph on the TOSA reference model
with the same inputs; every output, and every layer Vela's debug database
maps to a TOSA tensor, is compared element by element (compare.py).

Why a partition can be skipped (every one fails the build under "fail", in
one line naming it; "warn" prints the line and goes on):
  - the program's delegate calls and Vela's partitions do not correspond,
    so the delegates' inputs are unknown (aot/verify_data.py);
  - a delegate input is of a type the NPU does not read (float, int64), so
    the NPU's input cannot be rebuilt (aot/verify_data.py: "neither an
    integer nor a bool tensor");
  - the delegate's inputs and the TOSA graph's differ in number, or an
    input's element count is not its TOSA shape's (verify_partition);
  - the functional NPU model lacks a feature the payload uses (NotModelled).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import tempfile
import time
from typing import Any, Optional

import numpy as np

from ethosu_sdk.pte import delegate_payload, parse_pte
from ethosu_sdk.tensors import read_tensor_file, write_tensor_file
from ethosu_sdk.verify import compare, layer_trace, lowering_check, tosa_tensors, vela_debug_db

REPORT_FORMAT_VERSION = 1
MODES = ("fail", "warn", "off")
NPU_HALF = "NPU program (NPU vs TOSA)"  # the other half: lowering_check.HALF
# The run report npu_run writes with --json_out (sim/host/run_report.h).
NPU_RUN_FORMAT_VERSION = 1
# A partition whose command stream runs no NPU operation, only DMA copies
# (Vela's Gather on U85): Vela's debug database has no layer for them.
DMA_ONLY_NOTE = "no NPU operation, only DMA copies (no layer to compare): outputs compared only"


# The PyTorch operator that ExecuTorch lowers to each TOSA control-flow operator.
_CONTROL_FLOW_SOURCES = {"COND_IF": "torch.cond", "WHILE_LOOP": "torch.ops.higher_order.while_loop"}


class VerifyError(RuntimeError):
    """The verification could not run (as opposed to: found a difference)."""


class NotModelled(VerifyError):
    """The functional NPU model refuses the payload (an operation it does not
    model yet): the partition is reported as not verified, not as wrong."""


@dataclasses.dataclass
class Layer:
    """One row of the per-layer table."""

    tensor: str
    operator: str  # Vela's
    operations: int
    module: str = ""
    module_type: Optional[str] = None
    op: Optional[str] = None  # PyTorch operator
    source: Optional[str] = None
    elements: int = 0
    histogram: dict[int, int] = dataclasses.field(default_factory=dict)
    note: Optional[str] = None  # not compared (why), or a Vela-internal tensor
    compared: bool = True

    @property
    def differing(self) -> int:
        return sum(self.histogram.values())

    def name(self) -> str:
        """How a user recognises the layer: module path, type, operator, line."""
        what = f"`{self.module or '<model>'}`"
        detail = ", ".join(x for x in (self.module_type, self.op) if x)
        if self.source:
            detail += f" at {self.source}"
        return f"{what} ({detail})" if detail else what


@dataclasses.dataclass
class Partition:
    index: int
    skipped: Optional[str] = None
    outputs: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    layers: list[Layer] = dataclasses.field(default_factory=list)
    layers_note: Optional[str] = None  # why there is no per-layer table
    npu_log: str = ""
    # The functional model lacks an NPU feature this payload uses: the line
    # naming the feature and the PyTorch operator (a failure unless "warn").
    not_modelled: Optional[str] = None
    # The lowering check (lowering_check.py): TOSA graph against PyTorch.
    lowering: list[lowering_check.LoweredTensor] = dataclasses.field(default_factory=list)
    lowering_note: Optional[str] = None  # why the lowering was not checked
    timings: dict[str, float] = dataclasses.field(default_factory=dict)  # seconds per phase

    @property
    def exact(self) -> bool:
        return all(o["differing"] == 0 for o in self.outputs) and all(layer.differing == 0 for layer in self.layers)


@dataclasses.dataclass
class Report:
    partitions: list[Partition]
    seconds: float = 0.0

    def first_divergence(self) -> Optional[tuple[Partition, lowering_check.LoweredTensor]]:
        """The lowering's first tensor beyond the tolerance (TOSA vs PyTorch)."""
        for p in self.partitions:
            found = lowering_check.first_divergence(p.lowering)
            if found is not None:
                return p, found
        return None

    @property
    def passed(self) -> bool:
        """Both halves: the NPU program bit-exact, the lowering within tolerance."""
        return self.exact and self.first_divergence() is None

    @property
    def exact(self) -> bool:
        return all(p.exact for p in self.partitions if p.skipped is None)

    @property
    def complete(self) -> bool:
        """Every partition was verified (none skipped)."""
        return all(p.skipped is None for p in self.partitions)

    @property
    def not_modelled(self) -> list[str]:
        """Lines for the partitions the functional model cannot run."""
        return [p.not_modelled for p in self.partitions if p.not_modelled]

    @property
    def unverified(self) -> list[str]:
        """One line per partition the verification skipped, naming why (the
        module doc lists the reasons): the functional model lacks a feature
        (not_modelled), or the AOT step or the TOSA graph gave no inputs to
        run it with. Each fails the build under "fail": a program no one
        checked must not ship."""
        return [
            p.not_modelled or f"partition {p.index} was not verified: {p.skipped}" for p in self.partitions if p.skipped
        ]

    def first_difference(self) -> Optional[tuple[Partition, Optional[Layer], Optional[dict[str, Any]]]]:
        for p in self.partitions:
            if p.skipped is not None or p.exact:
                continue
            layer = next((layer for layer in p.layers if layer.differing), None)
            output = next((o for o in p.outputs if o["differing"]), None)
            return p, layer, output
        return None

    def as_json(self, mode: str) -> dict[str, Any]:
        first = self.first_difference()
        diverging = self.first_divergence()
        return {
            "format_version": REPORT_FORMAT_VERSION,
            "mode": mode,
            "status": (
                "fail"
                if not self.passed or (self.unverified and mode == "fail")
                else "pass"
                if self.complete
                else "skipped"
                if all(p.skipped for p in self.partitions)
                else "pass (partly skipped)"
            ),
            "summary": summary_line(self),
            "not_modelled": self.not_modelled,
            "unverified": self.unverified,
            "seconds": round(self.seconds, 3),
            "first_difference": None
            if first is None
            else {
                "partition": first[0].index,
                "layer": dict(dataclasses.asdict(first[1]), differing=first[1].differing) if first[1] else None,
                "output": first[2],
            },
            "first_lowering_divergence": None
            if diverging is None
            else dict(diverging[1].as_json(), partition=diverging[0].index),
            "partitions": [
                {
                    "index": p.index,
                    "skipped": p.skipped,
                    "not_modelled": p.not_modelled,
                    "outputs": p.outputs,
                    "layers_note": p.layers_note,
                    "lowering": [t.as_json() for t in p.lowering],
                    "lowering_note": p.lowering_note,
                    "seconds": {k: round(v, 3) for k, v in p.timings.items()},
                    "layers": [dict(dataclasses.asdict(layer), differing=layer.differing) for layer in p.layers],
                }
                for p in self.partitions
            ],
        }


def _run_npu(
    npu_run: str,
    payload: bytes,
    inputs: list[np.ndarray],
    outputs: list[np.ndarray],
    work: str,
    trace: Optional[str],
    inject: Optional[int],
    fast_scratch: int = 0,
) -> tuple[list[dict[str, Any]], str]:
    payload_path = os.path.join(work, "payload.bin")
    with open(payload_path, "wb") as f:
        f.write(payload)
    tensors = os.path.join(work, "case.tensors")
    write_tensor_file(tensors, inputs + outputs)
    argv = [npu_run, payload_path, tensors]
    if fast_scratch:
        argv.append(f"--fast_scratch={fast_scratch}")
    if trace:
        argv.append("--trace=" + trace)
    if inject is not None:
        argv.append(f"--inject={inject}")
    report_path = os.path.join(work, "npu_run.json")
    argv.append("--json_out=" + report_path)
    proc = subprocess.run(argv, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    if proc.returncode not in (0, 1) or not os.path.exists(report_path):
        raise VerifyError(f"the NPU model could not run the payload: {log.strip()}")
    report = read_npu_run_report(report_path)
    error = report["error"]
    if error is not None:
        if error["stage"] == "execute":
            raise NotModelled(error["message"])
        raise VerifyError(f"the NPU model failed ({error['stage']}): {error['message']}")
    results = [
        {
            "index": o["index"],
            "elements": o["elements"],
            "differing": o["differing"],
            "histogram": {int(d): c for d, c in o["histogram"].items()},
        }
        for o in report["outputs"]
    ]
    if len(results) != len(outputs):
        raise VerifyError(f"the NPU model compared {len(results)} outputs of {len(outputs)}: {log.strip()}")
    return results, log


def read_npu_run_report(path: str) -> dict[str, Any]:
    """npu_run's --json_out document, checked for the format this reads."""
    with open(path) as f:
        report: dict[str, Any] = json.load(f)
    version = report.get("format_version")
    if version != NPU_RUN_FORMAT_VERSION:
        raise VerifyError(
            f"{path}: npu_run report format {version}, this verification reads {NPU_RUN_FORMAT_VERSION}: "
            "rebuild //sim/host:npu_run and the SDK together"
        )
    return report


def _layers(db: str, trace: str, reference: dict[str, np.ndarray], origins: dict[str, dict]) -> list[Layer]:
    results = compare.compare_layers(
        vela_debug_db.read_layers(db), layer_trace.read_trace(trace), reference, vela_debug_db.read_placements(db)
    )
    layers = []
    for r in results:
        origin = origins.get(r.tensor, {})
        layer = Layer(
            r.tensor,
            r.operator,
            r.operations,
            origin.get("module", ""),
            origin.get("module_type"),
            origin.get("op"),
            origin.get("source"),
            r.elements,
            dict(r.histogram),
        )
        if r.internal:
            layer.compared, layer.note = False, compare.INTERNAL_NOTE
        elif r.unexported:
            layer.compared, layer.note = False, compare.UNEXPORTED_NOTE
        elif r.problem is not None:
            layer.compared, layer.note = False, "not compared: " + r.problem
        layers.append(layer)
    return layers


def _failing_operator(db: Optional[str], trace: Optional[str], origins_path: Optional[str]) -> str:
    """The PyTorch operator behind the NPU operation the model refused: the
    first layer of Vela's debug database (command stream order) past the
    last operation the model completed (its trace)."""
    unknown = "an operator of this partition"
    if not (db and trace and origins_path and os.path.exists(trace)):
        return unknown
    try:
        done = layer_trace.read_trace(trace)
        layers = vela_debug_db.read_layers(db)
        with open(origins_path) as f:
            origins = json.load(f)
    except (OSError, ValueError):
        return unknown
    last = done[-1].command_offset if done else -1
    ahead = [layer for layer in layers if layer.command_offset > last]
    if not ahead:
        return unknown
    layer = ahead[0]
    what = _origin_layer(layer, origins)
    if what.op:
        return f"the PyTorch operator {what.op} of {what.name()} (Vela {layer.operator}, TOSA tensor {layer.tensor})"
    # Vela named the tensor itself (e.g. "#81", a piece of a split
    # operator): the pieces run before the piece writing the operator's own
    # TOSA tensor, the next layer with a PyTorch origin.
    later = next((x for x in ahead[1:] if _origin_layer(x, origins).op), None)
    if later is None:
        return f"a Vela {layer.operator} (tensor {layer.tensor}, no PyTorch origin recorded)"
    what = _origin_layer(later, origins)
    return (
        f"a Vela {layer.operator} (tensor {layer.tensor}) on the way to the PyTorch operator {what.op} of "
        f"{what.name()} (TOSA tensor {later.tensor})"
    )


def _origin_layer(layer: vela_debug_db.Layer, origins: dict[str, dict]) -> Layer:
    """The layer with the PyTorch origin recorded for its tensor, if any."""
    # Vela may name the tensor after its TOSA source plus a suffix ("_int8").
    key = max((name for name in origins if layer.tensor.startswith(name)), key=len, default="")
    origin = origins.get(layer.tensor) or origins.get(key, {})
    return Layer(
        layer.tensor,
        layer.operator,
        0,
        origin.get("module", ""),
        origin.get("module_type"),
        origin.get("op"),
        origin.get("source"),
    )


def verify_partition(
    entry: dict[str, Any],
    directory: str,
    payload: bytes,
    npu_run: str,
    work: str,
    inject: Optional[int] = None,
    fast_scratch: int = 0,
) -> Partition:
    result = Partition(entry["index"])
    if entry.get("skipped"):
        result.skipped = entry["skipped"]
        return result
    with open(os.path.join(directory, entry["tosa"]), "rb") as f:
        graph = f.read()
    graph_inputs, output_names = tosa_tensors.graph_io(graph)
    stored = [t.data for t in read_tensor_file(os.path.join(directory, entry["inputs"]))]
    if len(stored) != len(graph_inputs):
        result.skipped = f"{len(stored)} delegate inputs for a TOSA graph of {len(graph_inputs)} inputs"
        return result
    inputs = []
    for data, (name, shape) in zip(stored, graph_inputs):
        if int(np.prod(shape)) != data.size:
            result.skipped = f"input {name}: {data.size} elements for the TOSA shape {shape}"
            return result
        inputs.append(np.ascontiguousarray(data).reshape(shape))
    branches = tosa_tensors.control_flow(graph)
    db = os.path.join(directory, entry["debug_db"]) if entry.get("debug_db") and not branches else None
    t = time.monotonic()
    if branches:
        # Vela compiles a TOSA COND_IF or WHILE_LOOP into a command stream
        # that branches (U85 NPU_OP_BRANCH): an operation inside a loop runs
        # once per iteration, so only the partition's outputs are compared.
        reference = tosa_tensors.run_rewritten(graph, output_names, inputs)
    else:
        rewritten, names = tosa_tensors.with_all_results_as_outputs(graph)
        result.timings["tosa_all_outputs_rewrite"] = time.monotonic() - t
        t = time.monotonic()
        reference = tosa_tensors.run_rewritten(rewritten, names, inputs)
    result.timings["tosa_reference_model"] = time.monotonic() - t
    missing = [name for name in output_names if name not in reference]
    if missing:
        raise VerifyError(f"partition {result.index}: TOSA outputs {missing} are no operator's result")
    outputs = [reference[name] for name in output_names]
    t = time.monotonic()
    result.lowering, result.lowering_note = lowering_check.check_partition(directory, entry, reference, output_names)
    result.timings["lowering_check"] = time.monotonic() - t
    trace = os.path.join(work, "layers.trace") if db else None
    t = time.monotonic()
    try:
        result.outputs, result.npu_log = _run_npu(npu_run, payload, inputs, outputs, work, trace, inject, fast_scratch)
    except NotModelled as e:
        operator = _failing_operator(
            db, trace, os.path.join(directory, entry["origins"]) if entry.get("origins") else None
        )
        result.not_modelled = (
            f"partition {result.index}: the functional NPU model lacks an NPU feature that "
            f"{operator} needs ({e}), so this program cannot be verified"
        )
        result.skipped = f"not verified: {result.not_modelled}"
        return result
    result.timings["npu_model"] = time.monotonic() - t
    if db and trace:
        t = time.monotonic()
        with open(os.path.join(directory, entry["origins"])) as f:
            origins = json.load(f)
        result.layers = _layers(db, trace, reference, origins)
        result.timings["layer_comparison"] = time.monotonic() - t
        if not result.layers:
            result.layers_note = DMA_ONLY_NOTE
    elif branches:
        result.layers_note = (
            f"the NPU program branches ({', '.join(f'{op}, from {_CONTROL_FLOW_SOURCES[op]}' for op in branches)}): "
            "outputs compared only"
        )
    else:
        result.layers_note = "no Vela debug database: outputs compared only"
    return result


def fast_scratch_bytes(pte_path: str) -> int:
    """Region 2's size for the .pte's payloads: the payload does not carry it,
    the AOT summary next to the .pte does (NAME.summary.json, from the Vela
    flags); 0 without one (no region 2 but U65's)."""
    summary = os.path.splitext(pte_path)[0] + ".summary.json"
    if not os.path.exists(summary):
        return 0
    with open(summary) as f:
        return int(json.load(f).get("fast_scratch_bytes") or 0)


def verify(pte_path: str, directory: str, npu_run: str, inject: Optional[int] = None) -> Report:
    """Verifies every Ethos-U delegate of the .pte (see the module doc)."""
    started = time.monotonic()
    fast_scratch = fast_scratch_bytes(pte_path)
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    with open(pte_path, "rb") as f:
        blob = f.read()
    program = parse_pte(blob)
    plan = program.plan()
    ethosu = [i for i, d in enumerate(plan.delegates) if d.id == "EthosUBackend"]
    entries = manifest["partitions"]
    if len(ethosu) != len(entries):
        raise VerifyError(
            f"the .pte has {len(ethosu)} Ethos-U delegates, the AOT step captured {len(entries)} Vela partitions"
        )
    partitions = []
    for entry, delegate_index in zip(entries, ethosu):
        payload = delegate_payload(blob, program, index=delegate_index)
        with tempfile.TemporaryDirectory(prefix="verify-") as work:
            partitions.append(verify_partition(entry, directory, payload, npu_run, work, inject, fast_scratch))
    return Report(partitions, time.monotonic() - started)


def summary_line(report: Report) -> str:
    """The first line of the verification's output."""
    if report.unverified:
        return "verification FAILED: " + "; ".join(report.unverified) + '; set verify = "warn" to build it unverified'
    checked = [p for p in report.partitions if p.skipped is None]
    skipped = [p.index for p in report.partitions if p.skipped is not None]
    note = f"; partitions {skipped} skipped (see the table)" if skipped else ""
    diverging = report.first_divergence()
    if diverging is not None:  # the TOSA graph is wrong: what the NPU runs matters less
        return f"verification FAILED: {lowering_check.describe(diverging[1], diverging[0].index)}{note}"
    first = report.first_difference()
    if first is None:
        layers = sum(1 for p in checked for layer in p.layers if layer.compared)
        outputs = sum(len(p.outputs) for p in checked)
        lowered = sum(1 for p in checked for t in p.lowering if t.note is None and not t.exact)
        tables = [t for p in checked for t in p.lowering if t.note is None and t.through_table]
        table_note = f" and {len(tables)} output(s) within {tables[0].rule()}" if tables else ""
        exact = sum(1 for p in checked for t in p.lowering if t.note is None and t.exact)
        if exact:
            note += f"; {exact} integer output(s) equal to PyTorch's"
        copies = [p.index for p in checked if p.layers_note == DMA_ONLY_NOTE]
        if copies:
            note += f"; partitions {copies} run DMA copies only, their outputs compared"
        return (
            f"verification passed: {len(checked)} Ethos-U partition(s), {layers} layers and {outputs} "
            f"output(s) bit-exact against the TOSA reference model, {lowered - len(tables)} TOSA tensor(s) within "
            f"{lowering_check.TOLERANCE_STEPS} step of PyTorch's quantized graph{table_note}{note}"
        )
    partition, layer, output = first
    if layer is not None:
        return (
            f"verification FAILED: {NPU_HALF}: first differing layer {layer.name()}, TOSA tensor {layer.tensor} "
            f"(Vela {layer.operator}, partition {partition.index}): {layer.differing} of {layer.elements} "
            f"elements differ from the TOSA reference model{note}"
        )
    assert output is not None
    return (
        f"verification FAILED: {NPU_HALF}: partition {partition.index} output {output['index']}: {output['differing']} "
        f"of {output['elements']} elements differ from the TOSA reference model{note}"
    )


def _histogram(histogram: dict[int, int]) -> str:
    return " ".join(f"{d:+d}:{c}" for d, c in sorted(histogram.items()))


def _short_histogram(histogram: dict[int, int], most: int = 8) -> str:
    """The histogram, or its extremes and totals when long (the JSON has it all)."""
    if len(histogram) <= most:
        return _histogram(histogram)
    items = sorted(histogram.items())
    half = most // 2
    skipped = sum(c for _, c in items[half:-half])
    return f"{_histogram(dict(items[:half]))} ... ({skipped} more) ... {_histogram(dict(items[-half:]))}"


def _lowering_table(p: Partition) -> list[str]:
    """The lowering check's rows: each TOSA tensor against PyTorch."""
    if p.lowering_note:
        return [f"  {lowering_check.HALF}: not checked: {p.lowering_note}"]
    lines = [
        f"  {lowering_check.HALF}:",
        f"  {'module (PyTorch)':<28} {'operator':<14} {'TOSA tensor':<32} {'elements':>9} {'max':>4}  "
        "histogram (TOSA - PyTorch: count)",
    ]
    for t in p.lowering:
        head = f"  {t.module or '<model>':<28} {(t.op or ''):<14} {t.tensor:<32}"
        lines.append(
            f"{head} not compared: {t.note}"
            if t.note
            else f"{head} {t.elements:>9} {t.max_steps:>4}  {_short_histogram(t.histogram)}"
            + (f"  (within {t.rule()})" if t.through_table else "")
        )
    return lines


def format_report(report: Report) -> str:
    """The summary line, then per partition the per-layer table."""
    lines = [summary_line(report)]
    for p in report.partitions:
        if p.skipped is not None:
            lines.append(f"partition {p.index}: skipped: {p.skipped}")
            continue
        lines.append(f"partition {p.index}:")
        if p.layers:
            lines.append(
                f"  {'#':>3} {'module (PyTorch)':<28} {'operator':<22} {'TOSA tensor':<32} "
                f"{'elements':>9} {'differ':>7}  histogram (model - reference: count)"
            )
            for i, layer in enumerate(p.layers):
                head = f"  {i:>3} {layer.module or '<model>':<28} {(layer.op or layer.operator):<22} {layer.tensor:<32}"
                if not layer.compared:
                    lines.append(f"{head} {layer.note}")
                else:
                    lines.append(f"{head} {layer.elements:>9} {layer.differing:>7}  {_histogram(layer.histogram)}")
        elif p.layers_note:
            lines.append(f"  {p.layers_note}")
        for o in p.outputs:
            lines.append(
                f"  output {o['index']}: {o['differing']} of {o['elements']} elements differ"
                + (f"  {_histogram(o['histogram'])}" if o["histogram"] else "")
            )
        lines += _lowering_table(p)
    return "\n".join(lines)


def run(
    pte_path: str,
    directory: str,
    npu_run: str,
    mode: str,
    report_json: Optional[str] = None,
    inject: Optional[int] = None,
) -> tuple[int, str, bool]:
    """Verifies and writes the JSON report. Returns (exit status for `mode`:
    1 on a difference or a skipped partition with "fail"; the summary line
    and the table;
    whether everything was verified and bit-exact). A partition skipped for
    any reason (the module doc lists them: an NPU feature the model lacks, or
    inputs the verification cannot rebuild) fails with "fail" in one line
    naming the reason: a program no one checked must not ship by default;
    "warn" prints the line and goes on."""
    if mode not in MODES:
        raise ValueError(f"verify mode must be one of {MODES}, got {mode!r}")
    if mode == "off":
        return 0, "verification off", True
    report = verify(pte_path, directory, npu_run, inject)
    text = format_report(report)
    if (not report.passed or report.unverified) and mode == "warn":
        text = text.replace("verification FAILED", 'verification WARNING (verify = "warn")', 1)
        text = text.replace('; set verify = "warn" to build it unverified', "", 1)
    if report_json:
        with open(report_json, "w") as f:
            json.dump(report.as_json(mode), f, indent=1, sort_keys=True)
            f.write("\n")
    failed = (not report.passed or bool(report.unverified)) and mode == "fail"
    return (1 if failed else 0), text, report.passed and report.complete
