"""Stage 3 of compile_model: the exported program lowered for the target
(ExecuTorch's partitioner, Vela's command stream captured, the cortex_m
passes for the CPU's share, --io=int8's folding), and with --tune the
lowerings the tuner needs and the one it chose (stage_tune.py)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from typing import Any, Callable, Optional

import torch

from ethosu_sdk.aot import cortex_m, cpu_fallback, export, integer_io, layout, lowering, vela_capture
from ethosu_sdk.aot.phase import phase
from ethosu_sdk.aot.search import stage_tune
from ethosu_sdk.aot.stages.stage_options import Request
from ethosu_sdk.aot.stages.stage_quantize import Prepared
from ethosu_sdk.aot.targets import QuantMode, Target, TargetKind, make_compile_spec
from ethosu_sdk.aot.workarounds import lowering_workarounds, vela_workarounds
from ethosu_sdk.pte import ExecutionPlan, parse_pte

VELA_LOG = "vela_stdout.txt"  # Vela's console output in the staging directory (every lowering's)


@dataclasses.dataclass(frozen=True)
class Lowering:
    """One lowering of the exported program and what it recorded."""

    edge: Any  # ExecuTorch's EdgeProgramManager
    program: Any  # ExecuTorch's ExecutorchProgramManager
    partitions: list[vela_capture.VelaPartition]
    applied: lowering_workarounds.Applied  # ExecuTorch lowering fixes applied
    kept_outputs: tuple[str, ...]  # transposes bypassed to keep partition outputs
    folded: Optional[integer_io.FoldedIo]  # --io=int8: the folded I/O quantization
    # Cortex-M: the lowered graph's own outputs (its operators' Python
    # reference implementations), the reference in place of PyTorch's.
    expected: Optional[tuple[torch.Tensor, ...]]


@dataclasses.dataclass(frozen=True)
class Lowered:
    target: Target  # the tuner's choice with --tune
    compile_spec: Any  # ExecuTorch's compile spec of `target`
    input_layout: layout.InputLayout
    shipped: Lowering  # the lowering whose program is written
    tuning: Optional[dict]  # the tuner's search for the summary; None without --tune
    pte: bytes
    plan: ExecutionPlan  # of the forward method, as our own reader parses the .pte
    delegated_operators: dict[str, int]
    cpu_operators: dict[str, int]
    seconds: dict[str, float]  # lower, and tune with --tune


class _Lowerer:
    """Lowers one exported program at a time, with the options every
    lowering of a compilation shares."""

    def __init__(self, request: Request, prepared: Prepared, staging: str) -> None:
        self.request, self.prepared, self.staging = request, prepared, staging
        self.vela_log = os.path.join(staging, VELA_LOG)

    def lower(self, program_to_lower: Any, target: Target, compile_spec: Any, capture_dir: str) -> Lowering:
        options, prepared = self.request.options, self.prepared
        io_int8 = self.request.io_mode is integer_io.IoMode.INT8
        folded: list[integer_io.FoldedIo] = []
        expected = None

        def on_the_cpu(edge: Any) -> Any:
            """What runs on the CPU, after partitioning: with --io=int8 the
            I/O quantize/dequantize folded out (first: the cortex_m passes
            would turn them into cortex_m:: operators), then on an Ethos-U
            target the partitioner's quantized fallbacks rewritten into
            cortex_m:: int8 operators (int8 programs only: the cortex_m
            operators take no 16-bit activations)."""
            if io_int8:
                folded[:] = [integer_io.fold(edge.exported_program())]
            if target.kind is TargetKind.ETHOS_U and self.request.mode is QuantMode.INT8:
                edge = cpu_fallback.to_cortex_m(edge, target.family)
            return edge

        with (
            # First: the verification's recording of the backend graph sees its result.
            vela_workarounds.keep_transposed_outputs() as bypassed,
            phase(options.model, "lowering"),
            # Before the capture, so the TOSA graph's origins it records
            # come after the workarounds' rewrites.
            (
                lowering_workarounds.clamp_fused_activations()
                if options.lowering_workarounds
                else contextlib.nullcontext(lowering_workarounds.Applied())
            ) as applied,
            vela_capture.capture_vela(
                os.path.join(self.staging, capture_dir), verify=bool(options.verify_dir)
            ) as partitions,
            vela_capture.stdout_to_file(self.vela_log),
        ):
            if target.kind is TargetKind.CORTEX_M:
                lowered = cortex_m.lower(prepared.quantized, prepared.inputs, target.name, io_int8)
                expected = lowered.expected
                folded[:] = [lowered.folded] if lowered.folded else []
                edge, program = lowered.edge, lowered.program
            else:
                edge, program = lowering.lower(program_to_lower, target, compile_spec, on_the_cpu)
        return Lowering(edge, program, partitions, applied, tuple(bypassed), folded[0] if folded else None, expected)

    def export(self, input_layout: layout.InputLayout) -> Any:
        """A fresh export in `input_layout`: lowering may rewrite the program it is given."""
        prepared = self.prepared
        with phase(self.request.options.model, "exporting"):
            return export.export_program(
                prepared.source_module,
                prepared.laid_out[input_layout],
                self.request.options.strict_export,
            )


def lower(request: Request, prepared: Prepared, staging: str, progress: Callable[[str], None]) -> Lowered:
    """Lowers into `staging` (Vela's captures and console log)."""
    target, compile_spec, input_layout = request.target, request.compile_spec, prepared.input_layout
    lowerer = _Lowerer(request, prepared, staging)
    seconds: dict[str, float] = {}
    progress(f"lowering for {target.name}" + (" (Vela)" if target.kind is TargetKind.ETHOS_U else ""))
    t = time.monotonic()
    shipped = lowerer.lower(prepared.program_to_lower, target, compile_spec, "vela")
    tuning = None
    if request.options.tune:
        # One lowering per layout the model can take; Vela then runs on
        # each one's TOSA graphs under every candidate configuration.
        lowered = {input_layout: shipped}
        if layout.has_image_input(prepared.inputs):
            for other in layout.InputLayout:
                if other is not input_layout:
                    progress(f"lowering with {other.value.upper()} input for the tuner")
                    lowered[other] = lowerer.lower(lowerer.export(other), target, compile_spec, f"vela-{other.value}")
        seconds["lower"] = time.monotonic() - t
        t = time.monotonic()
        graphs = {lay.value: [p.tosa_flatbuffer for p in one.partitions] for lay, one in lowered.items()}
        tuned = stage_tune.tune(request.options, target, request.mode, graphs, request.budget_bytes, progress)
        tuning = tuned.entry
        seconds["tune"] = time.monotonic() - t
        t = time.monotonic()
        input_layout = tuned.input_layout
        if tuned.target == target:  # one of the lowerings is the tuned program
            shipped = lowered[input_layout]
        else:
            target = tuned.target
            compile_spec = make_compile_spec(target, request.mode)
            progress(
                f"lowering again: {input_layout.value.upper()} input, {target.memory_mode} "
                f"{' '.join(target.vela_flags)}"
            )
            shipped = lowerer.lower(lowerer.export(input_layout), target, compile_spec, "vela-tuned")
    pte = bytes(shipped.program.buffer)
    seconds["lower"] = seconds.get("lower", 0.0) + time.monotonic() - t
    progress(f"lowered in {seconds['lower']:.1f} s: .pte of {len(pte)} bytes")
    plan = parse_pte(pte).plan("forward")  # our reader must accept what we ship
    delegated, cpu, _ = lowering.delegation_counts(shipped.edge)
    return Lowered(target, compile_spec, input_layout, shipped, tuning, pte, plan, delegated, cpu, seconds)
