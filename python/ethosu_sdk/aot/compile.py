"""The AOT flow end to end: model -> .pte + reference tensors + summary.

Outputs for `--output=DIR/NAME.pte`, all written to a temporary directory
next to them and renamed into place only when everything succeeded:

    NAME.pte               the ExecuTorch program
    NAME.input.tensors     the input the references were computed with
    NAME.expected.tensors  the output of the PyTorch graph that was lowered
                           (the converted PT2E module when quantized)
    NAME.summary.json      delegation, sizes, Vela figures

Intermediates (TOSA flatbuffers, Vela CSV reports, Vela's console report,
delegation table) go to `intermediates_dir` on request, and what the
verification step needs (verify_data.py) to `verify_dir`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Callable, Iterator, Optional

import torch

from ethosu_sdk import tuning_config
from ethosu_sdk.aot import (
    calibration,
    cortex_m,
    cpu_fallback,
    export,
    fast_scratch,
    integer_io,
    layout,
    lowering,
    lowering_reference,
    lowering_workarounds,
    precision,
    quantization,
    tuner,
    vela_capture,
    vela_conv3d_crop,
    vela_refusals,
    vela_workarounds,
    verify_data,
)
from ethosu_sdk.aot.errors import AotError, InvalidOptionError, ModelError, first_line
from ethosu_sdk.aot.targets import QuantMode, TargetKind, check_quant_mode, make_compile_spec, resolve_target
from ethosu_sdk.firmware import board_memory
from ethosu_sdk.models import UnknownModelError, load_model
from ethosu_sdk.pte import parse_pte
from ethosu_sdk.tensors import StoredTensor, encode

SUMMARY_FORMAT_VERSION = 1
OUTPUT_SUFFIXES = (".pte", ".input.tensors", ".expected.tensors", ".summary.json")


@dataclasses.dataclass(frozen=True)
class CompileOptions:
    model: str  # zoo name, package.module:function, or a model file (.py, .pt2)
    target: str
    quantize: str = "int8"  # int8 | a16w8 | none
    seed: int = 0
    calibration_dir: Optional[str] = None
    calibration_files: tuple[str, ...] = ()
    calibration_preprocess: Optional[str] = None  # module:function or FILE.py:function (calibration.py)
    system_config: Optional[str] = None
    memory_mode: Optional[str] = None
    state_dict: Optional[str] = None
    intermediates_dir: Optional[str] = None
    strict_export: bool = False
    tune: bool = False  # search Vela's options (tuner.py) within sram_budget_kib
    sram_budget_kib: Optional[int] = None
    tune_time_budget_s: float = 600.0
    input_layout: str = "nchw"  # nchw | nhwc (layout.py); --tune searches both
    board: Optional[str] = None  # board_memory.BOARD_MEMORY name: the model must fit it; --tune's default budget
    verify_dir: Optional[str] = None  # Ethos-U: inputs of the verification step (verify_data.py)
    # ExecuTorch lowering fixes (lowering_workarounds.py); off only to show what they fix.
    lowering_workarounds: bool = True
    eval_dir: Optional[str] = None  # labelled samples: top-1 per stage (python/ethosu_sdk/evaluate)
    host_runner: Optional[str] = None  # //cc/runner:host_runner: runs the program on eval_dir
    # Precision tuning (precision.py): points of top-1 against float the
    # program may lose on eval_dir; the search sets a16w8_modules and
    # precision_tuning for each compilation it runs.
    accuracy_tolerance: Optional[float] = None
    a16w8_modules: tuple[str, ...] = ()  # module paths with int16 activations in an int8 compilation
    precision_tuning: Optional[dict] = None  # the search, recorded in the summary
    # Verifies one precision trial's program: (pte, verify_dir) -> its
    # verification's status and line (the CLI's, verify/verify.py); None: not verified.
    verify_trial: Optional[Callable[[str, str], dict]] = None
    io: str = "float"  # float | int8: the program takes and returns the quantized tensors (integer_io.py)


@dataclasses.dataclass
class CompileResult:
    paths: dict[str, str]  # suffix -> written path
    summary: dict
    timings: dict[str, float]  # seconds: load, export, quantize, lower, total


def output_paths(pte_path: str) -> dict[str, str]:
    if not pte_path.endswith(".pte"):
        raise InvalidOptionError(f"--output must name a .pte file, got {pte_path!r}")
    stem = pte_path[: -len(".pte")]
    return {suffix: stem + suffix for suffix in OUTPUT_SUFFIXES}


def _stderr_progress(message: str) -> None:
    print(f"[aot] {message}", file=sys.stderr, flush=True)


def _as_tuple(value) -> tuple[torch.Tensor, ...]:
    """The model's outputs flattened as torch.export flattens them (pytree
    order: a dict by its keys' order, nested tuples depth first)."""
    return tuple(torch.utils._pytree.tree_leaves(value))


def output_names(value) -> list[str]:
    """A name per flattened output: its dict keys and sequence indices, joined
    by dots (`boxes`, `heads.0.scores`); `output<i>` for a plain tensor or tuple."""
    leaves = torch.utils._pytree.tree_flatten_with_path(value)[0]
    names = []
    for index, (path, _) in enumerate(leaves):
        keys = [str(getattr(k, "key", getattr(k, "idx", getattr(k, "name", k)))) for k in path]
        names.append(".".join(keys) if any(hasattr(k, "key") for k in path) else f"output{index}")
    return names


def _stored(
    tensors: tuple[torch.Tensor, ...], qparams: list[tuple[float, int]], dim_orders: list[tuple[int, ...]]
) -> list[StoredTensor]:
    """Tensor-file records in the program's memory order (layout.py)."""
    return [
        StoredTensor(layout.in_memory_order(t, order), s, z) for t, (s, z), order in zip(tensors, qparams, dim_orders)
    ]


def _sha256(blob: bytes) -> str:
    return hashlib.sha256(blob).hexdigest()


@contextlib.contextmanager
def _phase(model: str, phase: str) -> Iterator[None]:
    """Names the model and the phase in any error raised inside: the model's
    own code runs in every phase (build, forward, calibration)."""
    try:
        yield
    except UnknownModelError:
        raise
    except AotError as e:
        raise type(e)(f"model {model!r} failed while {phase}: {e}") from e
    except Exception as e:  # the model's code may raise anything
        raise ModelError(f"model {model!r} failed while {phase}: {first_line(e)}") from e


def compile_model(
    options: CompileOptions,
    output_pte: str,
    progress: Callable[[str], None] = _stderr_progress,
) -> CompileResult:
    """Runs the whole flow and writes the outputs atomically (see module doc).

    Sets torch to one thread (process-wide) so reference outputs do not
    depend on the machine's core count."""
    if options.accuracy_tolerance is not None:
        return _compile_tuning_precision(options, output_pte, progress)
    started = time.monotonic()
    timings: dict[str, float] = {}
    paths = output_paths(output_pte)
    mode = QuantMode.parse(options.quantize)
    target = resolve_target(options.target, options.system_config, options.memory_mode)
    check_quant_mode(target, mode)
    io_mode = _check_io(options, mode)
    input_layout = layout.InputLayout.parse(options.input_layout)
    board = _board(options.board)
    budget_kib = options.sram_budget_kib or (board.sram_bytes // tuner.KIB if board else None)
    budget_bytes = tuner.check_request(target, budget_kib) if options.tune else 0
    if mode is QuantMode.NONE and (
        options.calibration_dir or options.calibration_files or options.calibration_preprocess
    ):
        raise InvalidOptionError("calibration data needs a quantized compilation (--quantize=int8 or a16w8)")
    output_dir = os.path.dirname(os.path.abspath(output_pte))
    if not os.path.isdir(output_dir):
        raise InvalidOptionError(f"output directory {output_dir!r} does not exist")
    try:  # fail now, not after minutes of lowering
        tempfile.TemporaryDirectory(prefix=".aot-", dir=output_dir).cleanup()
    except OSError as e:
        raise InvalidOptionError(f"cannot write to output directory {output_dir!r}: {e.strerror}") from e

    # Deterministic numerics for the reference outputs (thread count changes
    # float summation order, which can move a value across a rounding edge).
    torch.set_num_threads(1)

    t = time.monotonic()
    with _phase(options.model, "building"):
        loaded = load_model(options.model, seed=options.seed, state_dict_path=options.state_dict)
    inputs = loaded.example_inputs
    layout.apply(inputs, input_layout)  # a layout the model cannot take fails before any work
    calibrated = (
        calibration.calibration_samples(
            options.calibration_dir, options.calibration_files, inputs, options.calibration_preprocess
        )
        if mode is not QuantMode.NONE
        else None
    )
    samples = calibrated.samples if calibrated else []
    timings["load"] = time.monotonic() - t

    compile_spec = make_compile_spec(target, mode)
    first_export: dict = {}  # node name -> source line (verify_data.source_lines)
    workarounds: list[vela_workarounds.Workaround] = []  # graph rewrites that avoid Vela issues
    progress(f"exporting {options.model}")
    t = time.monotonic()
    if mode is QuantMode.NONE:
        with _phase(options.model, "exporting"):
            program_to_lower = export.export_program(
                loaded.module, layout.apply(inputs, input_layout), options.strict_export
            )
            with torch.no_grad():
                produced = loaded.module(*inputs)
                expected, names = _as_tuple(produced), output_names(produced)
        in_q = [(0.0, 0)] * len(inputs)
        out_q = [(0.0, 0)] * len(expected)
        timings["export"] = time.monotonic() - t
        timings["quantize"] = 0.0
    else:
        with _phase(options.model, "exporting"):
            graph_module = export.export_for_quantization(loaded.module, inputs, options.strict_export)
            if target.kind is TargetKind.ETHOS_U:
                workaround = vela_workarounds.avoid_unbind_matmul(
                    graph_module, split_heads=target.family in ("ethos-u55", "ethos-u65")
                )
                if workaround:
                    workarounds.append(workaround)
                    progress(f"worked around Vela's unbind MatMul issue at {', '.join(workaround.nodes)}")
                cropped = vela_conv3d_crop.crop_conv3d_inputs(graph_module)
                if cropped:
                    workarounds.append(vela_workarounds.Workaround(vela_refusals.VELA_CONV3D_SLICE, tuple(cropped)))
                    progress(f"cropped the input of {', '.join(cropped)} on the CPU (Vela's CONV3D slice issue)")
            first_export = verify_data.source_lines(graph_module) if options.verify_dir else {}
        timings["export"] = time.monotonic() - t
        progress(f"quantizing ({mode.value}, {len(samples)} calibration sample(s))")
        t = time.monotonic()
        with _phase(options.model, "quantizing"):
            if target.kind is TargetKind.CORTEX_M:
                # Channels-last model and input, which the cortex_m passes need.
                input_layout = layout.InputLayout.NHWC
                converted = cortex_m.quantize(loaded.module, inputs, samples)
            else:
                converted = quantization.quantize(
                    graph_module, compile_spec, mode, samples, a16w8_modules=options.a16w8_modules
                )
            with torch.no_grad():
                produced = converted(*inputs)
                expected, names = _as_tuple(produced), output_names(produced)
            in_q, out_q = quantization.io_quantization(converted)
            # Quantized once in the model's own layout; only the export sees the layout.
            program_to_lower = export.export_program(
                converted, layout.apply(inputs, input_layout), options.strict_export
            )
        timings["quantize"] = time.monotonic() - t
        progress(f"quantized in {timings['quantize']:.1f} s")

    with tempfile.TemporaryDirectory(prefix=".aot-", dir=output_dir) as staging:
        progress(f"lowering for {target.name}" + (" (Vela)" if target.kind is TargetKind.ETHOS_U else ""))
        t = time.monotonic()
        vela_log = os.path.join(staging, "vela_stdout.txt")

        clamped = lowering_workarounds.Applied()  # what lowering_workarounds changed (last lowering)
        kept_outputs: list[str] = []  # transposes bypassed to keep partition outputs (last lowering)
        folded: list[integer_io.FoldedIo] = []  # --io=int8: the last lowering's folded parameters

        def fold_io(edge):
            folded[:] = [integer_io.fold(edge.exported_program())]
            return edge

        def lower_once(program_to_lower, target, compile_spec, capture_dir):
            with (
                # First: the verification's recording of the backend graph sees its result.
                vela_workarounds.keep_transposed_outputs() as bypassed,
                _phase(options.model, "lowering"),
                # Before the capture, so the TOSA graph's origins it records
                # come after the workarounds' rewrites.
                (
                    lowering_workarounds.clamp_fused_activations()
                    if options.lowering_workarounds
                    else contextlib.nullcontext(lowering_workarounds.Applied())
                ) as applied,
                vela_capture.capture_vela(
                    os.path.join(staging, capture_dir), verify=bool(options.verify_dir)
                ) as partitions,
                vela_capture.stdout_to_file(vela_log),
            ):
                if target.kind is TargetKind.CORTEX_M:
                    lowered = cortex_m.lower(converted, inputs, target.name, io_mode is integer_io.IoMode.INT8)
                    # The reference is the lowered graph itself, run in Python
                    # (the cortex_m operators' reference implementations).
                    expected_outputs.append(lowered.expected)
                    folded[:] = [lowered.folded] if lowered.folded else []
                    edge, program = lowered.edge, lowered.program
                else:
                    edge, program = lowering.lower(
                        program_to_lower,
                        target,
                        compile_spec,
                        lambda edge: _on_the_cpu(edge, target, mode, fold_io, io_mode),
                    )
            clamped.nodes[:], clamped.after_reshape[:] = applied.nodes, applied.after_reshape
            kept_outputs[:] = bypassed
            return edge, program, partitions

        expected_outputs: list[tuple[torch.Tensor, ...]] = []

        edge, program, partitions = lower_once(program_to_lower, target, compile_spec, "vela")
        if expected_outputs:
            expected = expected_outputs[0]
        tuning = None
        if options.tune:
            # One lowering per layout the model can take; Vela then runs on
            # each one's TOSA graphs under every candidate configuration.
            lowered = {input_layout: (edge, program, partitions)}
            if layout.has_image_input(inputs):
                for other in layout.InputLayout:
                    if other is not input_layout:
                        progress(f"lowering with {other.value.upper()} input for the tuner")
                        with _phase(options.model, "exporting"):
                            other_program = export.export_program(
                                converted, layout.apply(inputs, other), options.strict_export
                            )
                        lowered[other] = lower_once(other_program, target, compile_spec, f"vela-{other.value}")
            timings["lower"] = time.monotonic() - t
            t = time.monotonic()
            graphs = {lay.value: [p.tosa_flatbuffer for p in parts] for lay, (_, _, parts) in lowered.items()}
            tuned, tuned_layout, tuning = _tune(options, target, mode, graphs, budget_bytes, progress)
            timings["tune"] = time.monotonic() - t
            t = time.monotonic()
            input_layout = layout.InputLayout(tuned_layout)
            if tuned == target:  # one of the lowerings is the tuned program
                edge, program, partitions = lowered[input_layout]
            else:
                target = tuned
                progress(
                    f"lowering again: {input_layout.value.upper()} input, {target.memory_mode} "
                    f"{' '.join(target.vela_flags)}"
                )
                compile_spec = make_compile_spec(target, mode)
                # A fresh export: lowering may rewrite the program it is given.
                with _phase(options.model, "exporting"):
                    program_to_lower = export.export_program(
                        converted, layout.apply(inputs, input_layout), options.strict_export
                    )
                edge, program, partitions = lower_once(program_to_lower, target, compile_spec, "vela-tuned")
        pte = bytes(program.buffer)
        timings["lower"] = timings.get("lower", 0.0) + time.monotonic() - t
        progress(f"lowered in {timings['lower']:.1f} s: .pte of {len(pte)} bytes")

        if folded:  # --io=int8: the references in the program's integers
            inputs, expected, in_q, out_q = _integer_references(
                folded[0], inputs, expected, already_quantized=target.kind is TargetKind.CORTEX_M
            )
        parsed = parse_pte(pte)  # our reader must accept what we ship
        plan = parsed.plan("forward")
        delegated_ops, cpu_ops, _ = lowering.delegation_counts(edge)
        summary = {
            "format_version": SUMMARY_FORMAT_VERSION,
            "model": options.model,
            "target": target.name,
            "quantize": mode.value,
            "io": io_mode.value,
            "seed": options.seed,
            "calibration_samples": len(samples),
            "calibration": calibrated.as_summary() if calibrated else None,
            "input_layout": input_layout.value,
            "board": board.name if board else None,
            "system_config": target.system_config,
            "memory_mode": target.memory_mode,
            "vela_flags": list(target.vela_flags),
            "tuning": tuning,
            "a16w8_modules": list(options.a16w8_modules),
            "precision_tuning": options.precision_tuning,
            "vela_workarounds": [w.as_summary() for w in workarounds]
            + (
                [vela_workarounds.Workaround(vela_workarounds.LOST_OUTPUT, tuple(kept_outputs)).as_summary()]
                if kept_outputs
                else []
            ),
            # ExecuTorch lowering fixes applied (lowering_workarounds.py).
            "lowering_workarounds": [clamped.as_summary()] if clamped.nodes else [],
            # Region 2 the firmware must provide (Vela's arena cache); null off Ethos-U.
            "fast_scratch_bytes": fast_scratch.fast_scratch_bytes(compile_spec.compiler_flags)
            if target.kind is TargetKind.ETHOS_U
            else None,
            "tosa_spec": str(compile_spec.tosa_spec)
            if target.kind not in (TargetKind.CPU, TargetKind.CORTEX_M)
            else None,
            "pte": {"file": os.path.basename(paths[".pte"]), "size_bytes": len(pte), "sha256": _sha256(pte)},
            "delegates": [{"backend": d.id, "payload_bytes": d.payload_size} for d in plan.delegates],
            "fully_delegated": bool(plan.delegates)
            and all(op.startswith("quantized_decomposed::") for op in plan.kernel_calls),
            "delegated_operators": delegated_ops,
            "cpu_operators": cpu_ops,
            "pte_kernel_calls": plan.kernel_calls,
            # shape: PyTorch's sizes; dim_order: how the program lays them out in memory.
            "inputs": [
                {"shape": list(x.shape), "dim_order": list(info.dim_order), "scale": s, "zero_point": z}
                for x, info, (s, z) in zip(inputs, plan.inputs, in_q)
            ],
            # name: the dict keys (and indices) of a model returning a dict or nested tuples.
            "outputs": [
                {"name": n, "shape": list(y.shape), "dim_order": list(info.dim_order), "scale": s, "zero_point": z}
                for y, n, info, (s, z) in zip(expected, names, plan.outputs, out_q)
            ],
            "vela": [dict(p.figures) for p in partitions],
            "vela_total": vela_capture.total_figures(partitions),
        }

        if options.eval_dir:
            quantized = None if mode is QuantMode.NONE else converted
            summary["accuracy"] = _evaluate(
                options.eval_dir,
                options.host_runner,
                loaded.module,
                quantized,
                inputs,
                expected,
                pte,
                in_q,
                plan,
                staging,
                progress,
            )

        if board is not None:  # before anything is written: a model that cannot run there is an error
            try:
                board_memory.check_fits(summary, board.name)
            except board_memory.ModelDoesNotFit as e:
                raise InvalidOptionError(str(e)) from None

        staged = {
            ".pte": pte,
            ".input.tensors": encode(_stored(inputs, in_q, [i.dim_order for i in plan.inputs])),
            ".expected.tensors": encode(_stored(expected, out_q, [o.dim_order for o in plan.outputs])),
            ".summary.json": (json.dumps(summary, indent=2, sort_keys=True) + "\n").encode(),
        }
        for suffix, blob in staged.items():
            with open(os.path.join(staging, "out" + suffix), "wb") as f:
                f.write(blob)

        if options.verify_dir and target.kind is TargetKind.ETHOS_U:
            t = time.monotonic()
            stage = os.path.join(staging, "verify")
            delegate_inputs = verify_data.delegate_inputs(edge, layout.apply(inputs, input_layout))
            verify_data.write(stage, target.name, partitions, delegate_inputs, first_export)
            timings["verify_data"] = time.monotonic() - t
            t = time.monotonic()
            # PyTorch's quantized values per delegate: the lowering check.
            lowering_reference.write(
                stage,
                partitions,
                lowering_reference.delegate_calls(edge, layout.apply(inputs, input_layout)),
                first_export,
            )
            timings["lowering_reference"] = time.monotonic() - t
            t = time.monotonic()
            os.makedirs(options.verify_dir, exist_ok=True)
            for name in sorted(os.listdir(stage)):
                os.replace(os.path.join(stage, name), os.path.join(options.verify_dir, name))
            timings["verify_data"] += time.monotonic() - t

        if options.intermediates_dir:
            _write_intermediates(options.intermediates_dir, staging, edge, target, partitions, vela_log)

        # Everything succeeded: move the outputs into place.
        for suffix, path in paths.items():
            os.replace(os.path.join(staging, "out" + suffix), path)

    timings["total"] = time.monotonic() - started
    return CompileResult(paths=paths, summary=summary, timings=timings)


def _evaluate(
    eval_dir: str,
    host_runner: Optional[str],
    float_module,
    quantized,
    inputs,
    expected,
    pte: bytes,
    in_q,
    plan,
    staging: str,
    progress: Callable[[str], None],
) -> dict:
    """Top-1 of every stage on --eval_data (python/ethosu_sdk/evaluate)."""
    from ethosu_sdk.evaluate import dataset, stages

    try:
        return stages.evaluate(
            eval_dir,
            float_module,
            quantized,
            inputs,
            int(expected[0].numel()),
            pte,
            in_q,
            [i.dim_order for i in plan.inputs],
            host_runner,
            staging,
            progress,
        )
    except dataset.EvaluationError as e:
        raise InvalidOptionError(str(e)) from None


def _compile_tuning_precision(
    options: CompileOptions, output_pte: str, progress: Callable[[str], None]
) -> CompileResult:
    """The precision search (precision.py): each configuration compiled and
    evaluated at Vela's default options into a scratch directory, then the
    chosen one compiled with every option asked for (--tune searches Vela's
    options for that precision)."""
    precision.check_request(
        float(options.accuracy_tolerance or 0.0), options.eval_dir, options.host_runner, options.quantize
    )
    target = resolve_target(options.target, options.system_config, options.memory_mode)
    if target.kind is not TargetKind.ETHOS_U:
        raise InvalidOptionError(
            f"--accuracy_tolerance weighs Vela's cycle estimates: it needs an Ethos-U target, not {target.name}"
        )
    output_dir = os.path.dirname(os.path.abspath(output_pte))
    if not os.path.isdir(output_dir):
        raise InvalidOptionError(f"output directory {output_dir!r} does not exist")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=".precision-", dir=output_dir) as scratch:
        count = [0]

        def compile_once(choice: tuning_config.Precision) -> dict:
            count[0] += 1
            # A trial is measured, not shipped: no search of Vela's options,
            # no intermediates, its verification (where the caller gives one)
            # run here, and the board check left to the chosen program.
            stem = os.path.join(scratch, f"trial{count[0]}")
            verify_dir = stem + ".verify" if options.verify_trial else None
            trial = _at_precision(
                options, choice, tune=False, verify_dir=verify_dir, intermediates_dir=None, board=None
            )
            summary = dict(compile_model(trial, stem + ".pte", progress).summary)
            if options.verify_trial and verify_dir:
                summary["trial_verification"] = options.verify_trial(stem + ".pte", verify_dir)
            return summary

        chosen, entry = precision.search(float(options.accuracy_tolerance or 0.0), compile_once, progress)
    entry["search_seconds"] = round(time.monotonic() - started, 2)
    progress(f"precision: chose {chosen.describe()}; compiling it")
    result = compile_model(_at_precision(options, chosen, precision_tuning=entry), output_pte, progress)
    result.timings["precision"] = entry["search_seconds"]
    return result


def _at_precision(options: CompileOptions, choice: tuning_config.Precision, **changes) -> CompileOptions:
    """`options` compiled at one precision, with no search of its own."""
    return dataclasses.replace(
        options, accuracy_tolerance=None, quantize=choice.quantize, a16w8_modules=choice.modules, **changes
    )


def _on_the_cpu(edge, target, mode: QuantMode, fold_io: Callable, io_mode: integer_io.IoMode):
    """What runs on the CPU, after partitioning: with --io=int8 the I/O
    quantize/dequantize folded out (first: the cortex_m passes would turn them
    into cortex_m:: operators), then on an Ethos-U target the partitioner's
    quantized fallbacks rewritten into cortex_m:: int8 operators (int8
    programs only: the cortex_m operators take no 16-bit activations)."""
    if io_mode is integer_io.IoMode.INT8:
        edge = fold_io(edge)
    if target.kind is TargetKind.ETHOS_U and mode is QuantMode.INT8:
        edge = cpu_fallback.to_cortex_m(edge, target.family)
    return edge


def _check_io(options: CompileOptions, mode: QuantMode) -> integer_io.IoMode:
    """--io, checked against the options it cannot go with."""
    io_mode = integer_io.IoMode.parse(options.io)
    if io_mode is integer_io.IoMode.INT8:
        if mode is not QuantMode.INT8:
            raise InvalidOptionError(f"--io=int8 needs --quantize=int8 (got --quantize={mode.value}): use --io=float")
        if options.eval_dir:
            raise InvalidOptionError("--eval_data feeds float samples: it needs --io=float")
    return io_mode


def _integer_references(folded: integer_io.FoldedIo, inputs, expected, already_quantized: bool):
    """Input and expected tensors of an --io=int8 program, and their (scale,
    zero point): the float input quantized as the folded operator did; the
    expected outputs quantized back from the dequantized reference, unless
    the lowered graph already produced them in int8 (`already_quantized`)."""
    quantized_inputs = integer_io.quantize_all(inputs, folded.inputs)
    quantized_expected = tuple(expected) if already_quantized else integer_io.quantize_all(expected, folded.outputs)
    in_q = [(a.scale, a.zero_point) for a in folded.inputs]
    out_q = [(a.scale, a.zero_point) for a in folded.outputs]
    return quantized_inputs, quantized_expected, in_q, out_q


def _board(name: Optional[str]) -> Optional[board_memory.BoardMemory]:
    if not name:
        return None
    if name not in board_memory.BOARD_MEMORY:
        raise InvalidOptionError(f"unknown board {name!r}; boards: {', '.join(sorted(board_memory.BOARD_MEMORY))}")
    return board_memory.BOARD_MEMORY[name]


def _tune(
    options: CompileOptions,
    target,
    mode: QuantMode,
    graphs: dict[str, list[bytes]],
    budget_bytes: int,
    progress: Callable[[str], None],
):
    """The tuner's search on the TOSA graphs of the first lowerings (input
    layout -> graphs): the target with the winning Vela configuration, the
    winning input layout, and the search as a summary entry."""

    def flags_for(candidate: tuner.Candidate) -> list[str]:
        tried = dataclasses.replace(target, memory_mode=candidate.memory_mode, vela_flags=candidate.vela_flags)
        return list(make_compile_spec(tried, mode).compiler_flags)

    progress(
        f"tuning the input layout and Vela's options within {budget_bytes // tuner.KIB} KiB of SRAM "
        f"(time budget {options.tune_time_budget_s:.0f} s)"
    )
    trials, best = tuner.search(target, graphs, budget_bytes, options.tune_time_budget_s, flags_for, progress)
    if best is None:
        smallest = min((t.sram_need_kib for t in trials if t.error is None), default=None)
        needs = f"; the smallest SRAM figure tried was {smallest:,.0f} KiB" if smallest is not None else ""
        raise InvalidOptionError(
            f"no Vela configuration fits {budget_bytes // tuner.KIB} KiB of SRAM{needs}: "
            "raise --sram_budget_kib or pick a board with more SRAM"
        )
    progress(f"tuned: {best.candidate.describe()}, {best.figures.get('total_cycles')} cycles")
    rows = [trial.as_row(budget_bytes) for trial in trials]
    entry = {
        "sram_budget_kib": budget_bytes // tuner.KIB,
        "time_budget_s": options.tune_time_budget_s,
        "trials": rows,
        "chosen": trials.index(best),
    }
    # The program a plain compilation would have shipped, to measure the gain against.
    untuned = tuner.Candidate(str(target.memory_mode), tuning_config.DEFAULT_STRATEGY, None, next(iter(graphs)))
    if not target.vela_flags:
        entry["untuned"] = next((i for i, trial in enumerate(trials) if trial.candidate == untuned), None)
    return (
        dataclasses.replace(target, memory_mode=best.candidate.memory_mode, vela_flags=best.candidate.vela_flags),
        best.candidate.input_layout,
        entry,
    )


def _write_intermediates(directory: str, staging: str, edge, target, partitions, vela_log: str) -> None:
    """TOSA flatbuffers, Vela reports and the delegation table, staged first."""
    from executorch.devtools.backend_debug import get_delegation_info

    stage = os.path.join(staging, "intermediates")
    os.makedirs(stage)
    if target.kind is TargetKind.ETHOS_U:
        vela_capture.copy_reports(partitions, stage)
        shutil.copyfile(vela_log, os.path.join(stage, "vela_report.txt"))
    elif target.kind is TargetKind.TOSA:
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
