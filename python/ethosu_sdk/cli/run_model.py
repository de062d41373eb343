"""Runs a compiled model's firmware on its board and reports, in order: the
quantize-and-lower summary, Vela's estimate, the firmware image, the run
(top-5, PASS/FAIL against the reference, CPU instructions, memory) and the
path of an HTML report. Used by the ethosu_run rule (`bazel run`/`test`).
"""

from __future__ import annotations

import csv
import dataclasses
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Callable, TypeVar

from absl import app, flags

from ethosu_sdk.aot.options import Summary
from ethosu_sdk.errors import SdkError
from ethosu_sdk.report import accuracy as report_accuracy
from ethosu_sdk.report import html_report, tuning_svg
from ethosu_sdk.report import tuning as report_tuning
from ethosu_sdk.report import verification as report_verification
from ethosu_sdk.runner import boards, elf_size, etdump, model_run, protocol, simulate
from ethosu_sdk.tensors import tensor_file

FLAGS = flags.FLAGS
flags.DEFINE_string("name", "model", "Name of the run (report title, report directory).")
flags.DEFINE_string("elf", None, "Firmware image.", required=True)
flags.DEFINE_enum("board", "qemu_an547", sorted(boards.BOARDS), "Board to simulate.")
flags.DEFINE_bool(
    "fvp",
    False,
    "Run on Arm's FVP of the board where it has one (corstone300, corstone320) instead of the SDK's QEMU machine.",
)
flags.DEFINE_string("summary", None, "The model's AOT summary (.summary.json).", required=True)
flags.DEFINE_string("expected", None, "The reference output (.expected.tensors).", required=True)
flags.DEFINE_string("intermediates", None, "The model's intermediates directory (Vela CSVs), if built.")
flags.DEFINE_string(
    "baseline_summary",
    None,
    "The summary of another build of the same model (e.g. its int8-weights program): its NPU weight "
    "bytes are printed beside this one's.",
)
flags.DEFINE_string("verification", None, "The model's verification report (.verification.json), if any.")
flags.DEFINE_string(
    "accuracy_scores",
    None,
    "The program's output per evaluation sample (report/program_scores.py): top-5 and the confusion matrix.",
)
flags.DEFINE_string("charts", None, "The model's charts, rendered at build time (default: rendered here).")
flags.DEFINE_string(
    "report_dir",
    None,
    "Where to write the HTML report (default: bazel-reports/NAME in the workspace under "
    "`bazel run`, the test's undeclared outputs under `bazel test`).",
)
flags.DEFINE_float("timeout", 900.0, "Seconds before the simulation is stopped.")
flags.DEFINE_string("size_tool", "arm-none-eabi-size", "Prints an ELF's section sizes (Berkeley format).")
flags.DEFINE_string("npu", None, "The board's Ethos-U, e.g. ethos-u85-256 (default: the board's own).")
flags.DEFINE_string("simulator", None, "The simulator binary (default: the board's, looked up on PATH).")
flags.DEFINE_string("npu_library", None, "QEMU: the Ethos-U device core (libethosu_npu_device.so).")

T = TypeVar("T")

_PEAK_MACS = re.compile(r"ethos-u\d+-(\d+)$")


def say(text: str = "") -> None:
    print(text, flush=True)


def _count(n: float) -> str:
    return f"{int(n):,}"


def _operators(counts: dict[str, int]) -> str:
    # "aten_convolution_default" -> "convolution"
    def short(name: str) -> str:
        return re.sub(
            r"_(default|tensor|Tensor)$", "", re.sub(r"^(aten|quantized_decomposed|dim_order_ops)_", "", name)
        )

    return ", ".join(f"{short(k)} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


def vela_summary_rows(intermediates: str | None) -> dict[str, float]:
    """Totals from Vela's summary CSVs (SRAM/DRAM traffic in bytes)."""
    totals: dict[str, float] = {}
    if not intermediates:
        return totals
    for path in sorted(glob.glob(os.path.join(intermediates, "*summary*.csv"))):
        with open(path, newline="") as f:
            row = next(csv.DictReader(f))
        for key in ("sram_total_bytes", "dram_total_bytes", "on_chip_flash_total_bytes", "off_chip_flash_total_bytes"):
            if row.get(key):
                totals[key] = totals.get(key, 0.0) + float(row[key])
    return totals


def default_report_dir(name: str) -> str:
    if os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR"):
        return os.path.join(os.environ["TEST_UNDECLARED_OUTPUTS_DIR"], "report")
    root = os.environ.get("BUILD_WORKSPACE_DIRECTORY") or os.getcwd()
    return os.path.join(root, "bazel-reports", name)


class RunModelError(SdkError):
    """Bad inputs of the run: one line saying which and why."""


def _read_input(flag: str, path: str, read: Callable[[str], T]) -> T:
    """`read(path)`, or RunModelError naming the flag, the file and the reason."""
    try:
        return read(path)
    except OSError as e:
        raise RunModelError(f"cannot read --{flag}={path}: {e.strerror}") from e
    except ValueError as e:  # malformed JSON or tensor file
        raise RunModelError(f"--{flag}={path} is malformed ({e}): give the file aot_compile wrote") from e


def _check_report_dir(directory: str) -> None:
    """Fails before minutes of simulation, not after: the report directory
    (or its nearest existing parent) must be writable."""
    existing = os.path.abspath(directory)
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing) or not os.access(existing, os.W_OK | os.X_OK):
        raise RunModelError(
            f"cannot write the report to {directory}: {existing} is not a writable directory; "
            "give --report_dir=DIR somewhere writable"
        )
    try:  # permission bits say yes on read-only mounts and in /proc
        tempfile.TemporaryDirectory(prefix=".report-", dir=existing).cleanup()
    except OSError as e:
        raise RunModelError(
            f"cannot write the report to {directory}: {e.strerror}; give --report_dir=DIR somewhere writable"
        ) from e


def _verification(path: str | None) -> dict[str, object]:
    """The report's Verification section from ethosu_model's JSON report."""
    if not path:
        return {}
    report = _load_any_json(path)
    return {
        "verification": report["summary"],
        "verification_table": report_verification.table(report),
        "layer_origins": html_report.layer_origins(report),
    }


def _load_any_json(path: str) -> dict:
    with open(path) as f:
        return json.load(f)


@dataclasses.dataclass(frozen=True)
class _Inputs:
    """The run's inputs, every one read and checked before the simulation."""

    board: boards.Board
    npu: boards.Npu | None
    npu_library: str | None
    summary: Summary
    expected: list
    accuracy_scores: dict | None
    command: list[str]
    baseline: Summary | None = None  # --baseline_summary


def main(argv: list[str]) -> int:
    """Checks every input before the simulation starts: a bad one ends in one
    `run_model: error:` line and status 2 (127: no simulator)."""
    del argv
    try:
        inputs = _read_inputs()
    except (RunModelError, boards.NotAFirmware) as e:
        print(f"run_model: error: {e}", file=sys.stderr)
        return 2
    except boards.SimulatorNotFound as missing:
        print(f"run_model: error: {missing}", file=sys.stderr)
        return simulate.NOT_INSTALLED_STATUS
    summary, board = inputs.summary, inputs.board
    say(f"== {summary.model} for {summary.target} on {board.name} ==")
    accuracy = _lowering_section(summary, inputs.accuracy_scores)
    estimates = _vela_section(summary, inputs.baseline)
    sizes = _firmware_section(board)
    ran = _run_section(inputs, sizes)
    if ran is None:
        return 2
    status, verdict, figures = ran
    report = html_report.Report(
        title=f"{summary.model} on {board.name} ({summary.target})",
        verdict="PASS" if verdict.passed else "FAIL",
        figures=figures,
        estimates=estimates,
        delegation=[(k, "NPU", v) for k, v in sorted(summary.delegated_operators.items())]
        + [(k, "CPU", v) for k, v in sorted(summary.cpu_operators.items())],
        layers=html_report.read_layers(FLAGS.intermediates),
        tuning=report_tuning.rows(summary.tuning),
        tuning_chart=tuning_svg.render(summary.tuning) if summary.tuning else "",
        precision=report_tuning.precision_rows(summary.precision_tuning),
        accuracy=accuracy,
        **_verification(FLAGS.verification),
        notes=[_NOTE],
    )
    page = html_report.write(report, FLAGS.report_dir or default_report_dir(FLAGS.name), FLAGS.charts)
    say(f"Report: {page}")
    if status not in (0, 1) and not verdict.passed:
        return 2  # the firmware failed to run, not just to match
    return 0 if verdict.passed else 1


_NOTE = (
    "Inference cycles (Vela's total_cycles: compute and memory stalls), compute cycles and memory "
    "traffic in Vela's section are Vela's estimates. The firmware drives the "
    "Ethos-U through its registers; on QEMU the NPU is the SDK's Ethos-U device, which executes the "
    "command stream with the functional model (bit-exact, verified against the TOSA reference model; "
    "not cycle-accurate). Its PMU cycle counter is the device's idealised count "
    "(sim/device/README.md), never a measured hardware figure."
)


def _read_inputs() -> _Inputs:
    board = boards.get(FLAGS.board, FLAGS.fvp)
    npu = boards.parse_npu(FLAGS.npu)
    npu_library = FLAGS.npu_library or boards.default_npu_library()
    if FLAGS.npu and npu is None:
        raise RunModelError(f"--npu={FLAGS.npu} is not an Ethos-U configuration (ethos-u55-128, ethos-u85-256, ...)")
    _check_report_dir(FLAGS.report_dir or default_report_dir(FLAGS.name))
    summary = _read_input("summary", FLAGS.summary, Summary.read)
    expected = _read_input("expected", FLAGS.expected, tensor_file.read_tensor_file)
    accuracy_scores = (
        _read_input("accuracy_scores", FLAGS.accuracy_scores, _load_any_json) if FLAGS.accuracy_scores else None
    )
    command = board.command(
        boards.RunOptions(
            elf=FLAGS.elf, npu=npu, timeout=FLAGS.timeout, simulator=FLAGS.simulator, npu_library=npu_library
        )
    )
    baseline = _read_input("baseline_summary", FLAGS.baseline_summary, Summary.read) if FLAGS.baseline_summary else None
    return _Inputs(board, npu, npu_library, summary, expected, accuracy_scores, command, baseline)


def _lowering_section(summary: Summary, accuracy_scores: dict | None) -> report_accuracy.Section | None:
    """[1/4]: how the model was quantized and lowered, and its accuracy (eval_data)."""
    if summary.target.startswith("cortex-m"):
        say(
            "[1/4] Quantize (PT2E, CortexMQuantizer) and lower (ExecuTorch's cortex_m passes: cortex_m:: int8 operators)"
        )
    elif summary.quantize != "none":
        say("[1/4] Quantize (PT2E, EthosUQuantizer) and lower (ExecuTorch Arm backend: TOSA, then Vela)")
    else:
        say("[1/4] Export and lower (float, no quantization)")
    delegates = summary.delegates
    listed = ", ".join(f"{d.backend} {_count(d.payload_bytes)} B" for d in delegates)
    say(f"      delegates: {len(delegates)}" + (f" ({listed})" if delegates else ""))
    delegated = summary.delegated_operators
    say(f"      delegated operators: {sum(delegated.values())} ({_operators(delegated)})")
    say(f"      left on the CPU: {_operators(summary.cpu_operators) or 'none'}")
    say(f"      .pte: {_count(summary.pte.size_bytes)} bytes")
    if not summary.accuracy:  # ethosu_model(eval_data = ...): python/ethosu_sdk/evaluate
        return None
    accuracy = report_accuracy.section(
        summary.accuracy,
        accuracy_scores,
        _load_any_json(FLAGS.verification) if FLAGS.verification else None,
    )
    say(f"      accuracy on {accuracy.samples} labelled samples ({accuracy.source}):")
    for line in report_accuracy.lines(accuracy):
        say(f"        {line}")
    return accuracy


def _vela_section(summary: Summary, baseline: Summary | None) -> list[tuple[str, str]]:
    """[2/4]: Vela's estimate (its figures per partition, as Vela names them), and the searches."""
    vela = summary.vela
    if not vela:
        say("[2/4] Vela's estimate: none (no Ethos-U delegate)")
        return []
    v = vela[0]
    cycles = sum(p.get("npu_cycles", 0) for p in vela)
    # Vela's total_cycles is the inference with its memory stalls (the
    # latency to expect); npu_cycles counts compute alone.
    total = sum(p.get("total_cycles", p.get("npu_cycles", 0)) for p in vela)
    macs = sum(p.get("macs", 0) for p in vela)
    clock = v.get("core_clock_hz", 0) or 1
    say(
        f"[2/4] Vela's estimate ({v.get('accelerator_configuration')}, {v.get('system_config')}, "
        f"{v.get('memory_mode')}, {clock / 1e9:g} GHz)"
    )
    estimates = [
        (
            "inference",
            f"{_count(total)} cycles ({total / clock * 1e3:.2f} ms at {clock / 1e6:g} MHz; Vela's total_cycles)",
        ),
        ("of which", f"compute {_count(cycles)} cycles, memory stalls {_count(total - cycles)}"),
    ]
    peak = _PEAK_MACS.search(summary.target)
    if peak and cycles:
        utilisation = 100.0 * macs / (cycles * int(peak.group(1)))
        estimates.append(("MACs", f"{_count(macs)}, {utilisation:.1f}% of the peak {peak.group(1)} MACs/cycle"))
    weights = _weights_figure(summary, baseline)
    if weights:
        estimates.append(("NPU weights", weights))
    estimates.append(("SRAM used", f"{sum(p.get('sram_used_kib', 0) for p in vela):,.0f} KiB"))
    estimates.append(("DRAM used", f"{sum(p.get('dram_used_kib', 0) for p in vela):,.0f} KiB"))
    traffic = vela_summary_rows(FLAGS.intermediates)
    for key, label in _TRAFFIC:
        if traffic.get(key):
            estimates.append((label, f"{_count(traffic[key])} bytes"))
    if summary.tuning:
        estimates.append(("tuned", f"{report_tuning.choice_line(summary.tuning)} (report: Tuning)"))
    if summary.precision_tuning:
        estimates.append(("precision", report_tuning.precision_line(summary.precision_tuning)))
    for label, value in estimates:
        say(f"      {label}: {value}")
    return estimates


def _encoded_weight_bytes(summary: Summary) -> int:
    return sum(int(p.get("npu_encoded_weight_bytes", 0)) for p in summary.vela)


def _weights_figure(summary: Summary, baseline: Summary | None) -> str | None:
    """Vela's encoded weight bytes, beside --baseline_summary's (4-bit weights
    against the same model's int8 ones)."""
    encoded = _encoded_weight_bytes(summary)
    if not encoded:
        return None
    text = f"{_count(encoded)} bytes encoded by Vela ({summary.weights or 'int8'} weights)"
    if baseline is not None:
        other, theirs = baseline, _encoded_weight_bytes(baseline)
        if theirs:
            text += (
                f"; {other.weights or 'int8'} weights: {_count(theirs)} bytes "
                f"({100.0 * (encoded - theirs) / theirs:+.1f}%)"
            )
    return text


_TRAFFIC = (
    ("sram_total_bytes", "SRAM traffic"),
    ("dram_total_bytes", "DRAM traffic"),
    ("on_chip_flash_total_bytes", "on-chip flash traffic"),
    ("off_chip_flash_total_bytes", "off-chip flash traffic"),
)


def _firmware_section(board: boards.Board) -> elf_size.ImageSizes | None:
    """[3/4]: the firmware image's sizes."""
    try:
        sizes: elf_size.ImageSizes | None = elf_size.image_sizes(FLAGS.elf, FLAGS.size_tool)
    except (OSError, subprocess.CalledProcessError):
        sizes = None
    described = (
        f"text {_count(sizes.text)}, data {_count(sizes.data)}, bss {_count(sizes.bss)} bytes"
        if sizes
        else "(size tool unavailable)"
    )
    say(f"[3/4] Firmware for {board.name}: {described}")
    return sizes


def _run_section(
    inputs: _Inputs, sizes: elf_size.ImageSizes | None
) -> tuple[int, model_run.Verdict, list[tuple[str, str]]] | None:
    """[4/4]: the run on the board and its figures; None when its console output is not a run."""
    board, npu = inputs.board, inputs.npu
    where = board.description
    if npu and board.npu_device and inputs.npu_library:
        where += f", {npu.title} device (the SDK's functional model)"
    elif npu and not board.npu_device:
        where += f", its own {npu.title}"
    say(f"[4/4] Running on {where} ...")
    started = time.monotonic()

    def echo(line: str) -> None:
        if line.startswith("ESDK "):  # records are summarised below
            return
        if line.strip() in board.expected_guest_errors:
            return
        sys.stdout.write("      | " + line)  # firmware logs and faults

    status, output = simulate.run(inputs.command, FLAGS.timeout, echo=echo)
    wall = time.monotonic() - started
    try:
        run = protocol.parse(output)
    except protocol.ProtocolError as bad:
        print(
            f"run_model: error: the firmware's console output is not a well-formed run ({bad}); the console "
            "lines above show where it went wrong",
            file=sys.stderr,
        )
        return None
    verdict = model_run.check_outputs(run, inputs.expected)
    figures: list[tuple[str, str]] = [("board", where), ("simulation wall time", f"{wall:.1f} s")]
    figures += _output_figures(run, verdict, inputs.summary)
    figures += _device_figures(run, sizes)
    figures += _profile_section(run)
    say(f"      {'PASS' if verdict.passed else 'FAIL'}: {verdict.reason}")
    # A program built with verify = "warn" although the verification skipped
    # a partition (python/ethosu_sdk/verify/verify.py, Report.unverified):
    # the run says so beside its verdict.
    report_json = _load_any_json(FLAGS.verification) if FLAGS.verification else {}
    for line in report_json.get("unverified") or report_json.get("not_modelled") or []:
        say(f"      NOT VERIFIED: {line}")
        figures.append(("not verified at build time", line))
    return status, verdict, figures


def _output_figures(run: protocol.Run, verdict: model_run.Verdict, summary: Summary) -> list[tuple[str, str]]:
    """The outputs: top-5 of a score vector, and each output against the reference."""
    figures = []
    # Scores per class: one row of a [1, classes] (or [classes]) output; a
    # feature map has no classes to rank.
    scores = run.outputs.get(0)
    if scores is not None and (scores.ndim == 1 or (scores.ndim == 2 and scores.shape[0] == 1)):
        top = model_run.top_k(scores)
        say("      top-5: " + ", ".join(f"class {i} ({v:.3f})" for i, v in top))
        figures.append(("top-5 classes", ", ".join(f"{i} ({v:.3f})" for i, v in top)))
    # A model returning a dict names its outputs by key (the AOT summary's `name`).
    names = [o.name for o in summary.outputs]
    for c in verdict.checks:
        unit = "steps" if c.scale > 0 else "absolute"
        name = names[c.index] if c.index < len(names) else None
        label = f"output {c.index}" + (f" ({name})" if name and name != f"output{c.index}" else "")
        line = (
            f"{label}: {c.within}/{c.elements} {c.rule}, "
            f"{c.bit_exact} bit-exact, max difference {c.max_difference:.3g} {unit}"
        )
        say("      " + line)
        figures.append((f"{label} vs reference", line.split(": ", 1)[1]))
    return figures


def _device_figures(run: protocol.Run, sizes: elf_size.ImageSizes | None) -> list[tuple[str, str]]:
    """What the board counted: the NPU's PMU, the CPU's instructions, memory, the image."""
    figures = []
    device = model_run.npu_figures(run)
    if device and device.jobs:
        found = boards.parse_npu(device.npu)
        title = found.title if found else device.npu
        events = ", ".join(f"{name} {_count(count)}" for name, count in device.events.items())
        say(
            f"      NPU: {title} (from its ID/CONFIG registers), {device.jobs} job(s); "
            f"PMU cycle counter {_count(device.cycles)}" + (f"; events: {events}" if events else "")
        )
        figures.append(("NPU found by the driver", f"{title}, {device.jobs} job(s)"))
        figures.append(("NPU PMU cycle counter", _count(device.cycles)))
        figures += [(f"NPU PMU event {name}", _count(count)) for name, count in device.events.items()]
    cost = model_run.costs(run)
    if cost:
        say(
            f"      CPU instructions: {_count(cost.cpu_instructions)} per inference "
            f"(QEMU -icount; of which {_count(cost.npu_call_instructions)} in the NPU calls: "
            "copies, cache maintenance, driver)"
        )
        figures.append(("CPU instructions per inference", _count(cost.cpu_instructions)))
        figures.append(("of which NPU calls (instructions)", _count(cost.npu_call_instructions)))
    figures += _memory_figures(run.records.get("MEMORY", {}))
    if sizes:
        figures.append(
            ("firmware text / data / bss (bytes)", f"{_count(sizes.text)} / {_count(sizes.data)} / {_count(sizes.bss)}")
        )
    return figures


# Operators shown by name in the run's profile; the rest are summed.
_PROFILE_SHOWN = 8


def _profile_section(run: protocol.Run) -> list[tuple[str, str]]:
    """Where the CPU's time went, operator by operator (the runner's PROFILE
    records, the same timer as the total), and the ETDump that ExecuTorch's
    Inspector reads, beside the report."""
    profile = etdump.from_run(run)
    if profile is None:
        return []
    cost = model_run.costs(run)
    operators = etdump.by_operator(profile)
    summed = sum(o.nanoseconds for o in operators)
    of_total = f", {100 * summed / cost.cpu_instructions:.2f}% of the total" if cost and cost.cpu_instructions else ""
    say(f"      per operator (instructions, slowest first; their sum {_count(summed)}{of_total}):")
    for o in operators[:_PROFILE_SHOWN]:
        say(f"        {o.name} x{o.calls}: {_count(o.nanoseconds)} ({100 * o.nanoseconds / max(summed, 1):.1f}%)")
    rest = operators[_PROFILE_SHOWN:]
    if rest:
        say(f"        {len(rest)} more operators: {_count(sum(o.nanoseconds for o in rest))}")
    directory = FLAGS.report_dir or default_report_dir(FLAGS.name)
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "etdump.etdp")
    with open(path, "wb") as f:
        f.write(etdump.write(profile))
    say(f"      ETDump (ExecuTorch's Inspector reads it): {path}")
    return [(f"profile: {o.name} x{o.calls} (instructions)", _count(o.nanoseconds)) for o in operators]


def _memory_figures(memory: dict) -> list[tuple[str, str]]:
    if not memory:
        return []
    fast = f"; NPU fast scratch (SRAM) {_count(memory['fast_scratch'])} bytes" if memory.get("fast_scratch") else ""
    say(
        f"      memory: program {_count(memory['program'])}, planned arena {_count(memory['planned'])}, "
        f"runtime arena {_count(memory['runtime_arena_used'])} of {_count(memory['runtime_arena'])} "
        f"(NPU scratch {_count(memory['npu_scratch'])}), peak {_count(memory['peak'])} bytes{fast}"
    )
    if "total" in memory:
        say(
            f"      RAM: total {_count(memory['total'])} bytes = planned arena {_count(memory['planned'])} "
            f"+ runtime state {_count(memory['runtime_arena_used'])} (the runtime's own share: values, "
            f"tensors, instructions, delegate handles, NPU scratch) + stack {_count(memory['stack'])} "
            f"(high-water mark, of {_count(memory['stack_size'])})"
        )
    keys = ("program", "planned", "runtime_arena_used", "npu_scratch", "fast_scratch", "peak", "stack", "total")
    return [(f"memory: {key.replace('_', ' ')} (bytes)", _count(memory[key])) for key in keys if key in memory]


if __name__ == "__main__":
    app.run(main)
