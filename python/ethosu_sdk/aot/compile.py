"""The AOT flow end to end: model -> .pte + reference tensors + summary.

Outputs for `--output=DIR/NAME.pte`, all written to a temporary directory
next to them and renamed into place only when everything succeeded:

    NAME.pte               the ExecuTorch program
    NAME.input.tensors     the input the references were computed with
    NAME.expected.tensors  the output of the PyTorch graph that was lowered
                           (the converted PT2E module when quantized)
    NAME.summary.json      delegation, sizes, Vela figures (summary.py)

Intermediates (TOSA flatbuffers, Vela CSV reports, Vela's console report,
delegation table) go to `intermediates_dir` on request, and what the
verification step needs (verify_data.py) to `verify_dir`.

`compile_model` runs the stages in order, each a function of its own module
returning a frozen dataclass: stage_options (the options checked),
stage_quantize (build, export, quantize), stage_lower (lower; stage_tune for
--tune), references (the reference tensors), stage_evaluate (--eval_data),
summary, stage_verify (verify_dir), stage_outputs (intermediates, the files).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import time
from typing import Callable, Optional

import torch

from ethosu_sdk import host_numerics, tuning_config
from ethosu_sdk.aot import references, summary
from ethosu_sdk.aot.errors import InvalidOptionError
from ethosu_sdk.aot.options import CompileOptions, CompileResult
from ethosu_sdk.aot.search import precision
from ethosu_sdk.aot.stages import (
    stage_evaluate,
    stage_lower,
    stage_options,
    stage_outputs,
    stage_quantize,
    stage_verify,
)
from ethosu_sdk.aot.stages.stage_options import OUTPUT_SUFFIXES, output_paths
from ethosu_sdk.aot.targets import TargetKind, resolve_target
from ethosu_sdk.aot.workarounds import torch_provenance
from ethosu_sdk.firmware import board_memory

__all__ = [
    "OUTPUT_SUFFIXES",
    "CompileOptions",
    "CompileResult",
    "HostTools",
    "compile_model",
    "output_paths",
    "quantize_model",
]


@dataclasses.dataclass(frozen=True)
class HostTools:
    """What a compilation may run on the host besides itself, given apart
    from the options: compile does not know how a program is verified."""

    host_runner: Optional[str] = None  # //sim/host:host_runner: runs the program on eval_dir
    # Verifies one precision trial's program: (pte, verify_dir) -> its
    # verification's status and line (the CLI's, verify/verify.py); None: not verified.
    verify_trial: Optional[Callable[[str, str], dict]] = None


def _stderr_progress(message: str) -> None:
    print(f"[aot] {message}", file=sys.stderr, flush=True)


def quantize_model(options: CompileOptions, progress: Callable[[str], None] = lambda _: None) -> torch.fx.GraphModule:
    """PyTorch's quantized graph of `options.model` exactly as compile_model
    builds it before lowering: the same export, lowering workarounds,
    quantizer, calibration and pinned numerics. For references of one's own
    (examples/lm's perplexity and its check), so they never re-implement
    the SDK's steps."""
    host_numerics.pin_torch()
    torch_provenance.share_node_sources()  # a copy of FX provenance shares it
    with tempfile.TemporaryDirectory(prefix="esdk-quantize-") as scratch:
        request = stage_options.check(options, os.path.join(scratch, "model.pte"))
        prepared = stage_quantize.prepare(request, progress)
    if prepared.quantized is None:
        raise InvalidOptionError("quantize_model needs a quantized compilation (--quantize=int8 or a16w8)")
    return prepared.quantized


def compile_model(
    options: CompileOptions,
    output_pte: str,
    progress: Callable[[str], None] = _stderr_progress,
    tools: HostTools = HostTools(),
) -> CompileResult:
    """Runs the whole flow and writes the outputs atomically (see module doc).

    Pins torch's numerics process-wide (host_numerics.py), so the outputs do
    not depend on the build host's CPU or core count."""
    # The same float arithmetic on every host: scales, zero points and
    # reference outputs must not move across a rounding edge with the CPU.
    host_numerics.pin_torch()
    torch_provenance.share_node_sources()  # a copy of FX provenance shares it
    if options.accuracy_tolerance is not None:
        return _compile_tuning_precision(options, output_pte, progress, tools)
    started = time.monotonic()
    request = stage_options.check(options, output_pte)

    prepared = stage_quantize.prepare(request, progress)
    timings = dict(prepared.seconds)
    with tempfile.TemporaryDirectory(prefix=".aot-", dir=request.output_dir) as staging:
        lowered = stage_lower.lower(request, prepared, staging, progress)
        timings.update(lowered.seconds)
        refs = references.build(prepared, lowered)
        accuracy = (
            stage_evaluate.evaluate(options.eval_dir, tools.host_runner, prepared, lowered, refs, staging, progress)
            if options.eval_dir
            else None
        )
        built = summary.build(request, prepared, lowered, refs, request.paths[".pte"], accuracy)
        if request.board is not None:  # before anything is written: a model that cannot run there is an error
            try:
                board_memory.check_fits(built.to_dict(), request.board.name)
            except board_memory.ModelDoesNotFit as e:
                raise InvalidOptionError(str(e)) from None
        stage_outputs.stage(
            staging,
            {
                ".pte": lowered.pte,
                ".input.tensors": refs.input_file(lowered),
                ".expected.tensors": refs.expected_file(lowered),
                ".summary.json": built.to_json(),
            },
        )
        if options.verify_dir and lowered.target.kind is TargetKind.ETHOS_U:
            timings.update(stage_verify.write(options.verify_dir, staging, prepared, lowered, refs))
        if options.intermediates_dir:
            stage_outputs.write_intermediates(options.intermediates_dir, staging, lowered)
        stage_outputs.move_into_place(staging, request.paths)
    timings["total"] = time.monotonic() - started
    return CompileResult(paths=request.paths, summary=built, timings=timings)


def _compile_tuning_precision(
    options: CompileOptions, output_pte: str, progress: Callable[[str], None], tools: HostTools
) -> CompileResult:
    """The precision search (precision.py): each configuration compiled and
    evaluated at Vela's default options into a scratch directory, then the
    chosen one compiled with every option asked for (--tune searches Vela's
    options for that precision)."""
    precision.check_request(
        float(options.accuracy_tolerance or 0.0), options.eval_dir, tools.host_runner, options.quantize
    )
    target = resolve_target(options.target, options.system_config, options.memory_mode)
    if target.kind is not TargetKind.ETHOS_U:
        raise InvalidOptionError(
            f"--accuracy_tolerance weighs Vela's cycle estimates: it needs an Ethos-U target, not {target.name}"
        )
    output_dir = stage_options.check_output_dir(output_pte)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=".precision-", dir=output_dir) as scratch:
        count = [0]

        def compile_once(choice: tuning_config.Precision) -> dict:
            count[0] += 1
            # A trial is measured, not shipped: no search of Vela's options,
            # no intermediates, its verification (where the caller gives one)
            # run here, and the board check left to the chosen program.
            stem = os.path.join(scratch, f"trial{count[0]}")
            verify_dir = stem + ".verify" if tools.verify_trial else None
            trial = _at_precision(
                options, choice, tune=False, verify_dir=verify_dir, intermediates_dir=None, board=None
            )
            trial_summary = compile_model(trial, stem + ".pte", progress, tools).summary.to_dict()
            if tools.verify_trial and verify_dir:
                trial_summary["trial_verification"] = tools.verify_trial(stem + ".pte", verify_dir)
            return trial_summary

        chosen, entry = precision.search(float(options.accuracy_tolerance or 0.0), compile_once, progress)
    entry["search_seconds"] = round(time.monotonic() - started, 2)
    progress(f"precision: chose {chosen.describe()}; compiling it")
    result = compile_model(_at_precision(options, chosen, precision_tuning=entry), output_pte, progress, tools)
    result.timings["precision"] = entry["search_seconds"]
    return result


def _at_precision(options: CompileOptions, choice: tuning_config.Precision, **changes) -> CompileOptions:
    """`options` compiled at one precision, with no search of its own."""
    return dataclasses.replace(
        options, accuracy_tolerance=None, quantize=choice.quantize, a16w8_modules=choice.modules, **changes
    )
