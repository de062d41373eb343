"""Stage 2 of compile_model: the model built, exported and (unless
--quantize=none) calibrated and quantized with PT2E, with the reference
outputs of the graph that is lowered next."""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Callable, Optional

import torch

from ethosu_sdk.aot import calibration, cortex_m, export, layout, quantization, verify_data
from ethosu_sdk.aot.phase import phase
from ethosu_sdk.aot.stages.stage_options import Request
from ethosu_sdk.aot.targets import QuantMode, TargetKind
from ethosu_sdk.aot.workarounds import vela_conv3d_crop, vela_faults, vela_refusals, vela_workarounds
from ethosu_sdk.models import load_model

QParams = list[tuple[float, int]]  # (scale, zero point) per tensor; (0.0, 0) for a float one


@dataclasses.dataclass(frozen=True)
class Prepared:
    float_module: torch.nn.Module  # the model as built
    # The graph the lowering starts from (the converted PT2E module when
    # quantized, else the float model): re-exported for each input layout.
    source_module: Any
    quantized: Optional[Any]  # the converted PT2E module; None with --quantize=none
    inputs: tuple[torch.Tensor, ...]  # the example input, in the model's own layout
    laid_out: dict[layout.InputLayout, tuple[torch.Tensor, ...]]  # `inputs` in each layout it can take
    input_layout: layout.InputLayout  # the exported program's (cortex_m: NHWC for 4-D inputs)
    program_to_lower: Any  # torch.export's ExportedProgram
    calibrated: Optional[calibration.Calibration]
    samples: list[tuple[torch.Tensor, ...]]
    expected: tuple[torch.Tensor, ...]  # source_module's outputs on `inputs`, flattened
    output_names: list[str]
    input_qparams: QParams
    output_qparams: QParams
    workarounds: tuple[vela_workarounds.Workaround, ...]  # graph rewrites that avoid Vela issues
    first_export: dict  # node name -> source line (verify_data.source_lines), with verify_dir
    seconds: dict[str, float]  # load, export, quantize


def as_tuple(value: Any) -> tuple[torch.Tensor, ...]:
    """The model's outputs flattened as torch.export flattens them (pytree
    order: a dict by its keys' order, nested tuples depth first)."""
    return tuple(torch.utils._pytree.tree_leaves(value))


def output_names(value: Any) -> list[str]:
    """A name per flattened output: its dict keys and sequence indices, joined
    by dots (`boxes`, `heads.0.scores`); `output<i>` for a plain tensor or tuple."""
    leaves = torch.utils._pytree.tree_flatten_with_path(value)[0]
    names = []
    for index, (path, _) in enumerate(leaves):
        keys = [str(getattr(k, "key", getattr(k, "idx", getattr(k, "name", k)))) for k in path]
        names.append(".".join(keys) if any(hasattr(k, "key") for k in path) else f"output{index}")
    return names


def prepare(request: Request, progress: Callable[[str], None]) -> Prepared:
    options, target, mode = request.options, request.target, request.mode
    input_layout = request.input_layout
    seconds: dict[str, float] = {}
    t = time.monotonic()
    with phase(options.model, "building"):
        loaded = load_model(options.model, seed=options.seed, state_dict_path=options.state_dict)
    inputs = loaded.example_inputs
    laid_out = layout.laid_out(inputs, input_layout)  # a layout the model cannot take fails before any work
    calibrated = (
        calibration.calibration_samples(
            options.calibration_dir, options.calibration_files, inputs, options.calibration_preprocess
        )
        if mode is not QuantMode.NONE
        else None
    )
    samples = calibrated.samples if calibrated else []
    seconds["load"] = time.monotonic() - t

    first_export: dict = {}
    workarounds: list[vela_workarounds.Workaround] = []
    progress(f"exporting {options.model}")
    t = time.monotonic()
    quantized = None
    if mode is QuantMode.NONE:
        with phase(options.model, "exporting"):
            program_to_lower = export.export_program(loaded.module, laid_out[input_layout], options.strict_export)
            with torch.no_grad():
                produced = loaded.module(*inputs)
                expected, names = as_tuple(produced), output_names(produced)
        in_q: QParams = [(0.0, 0)] * len(inputs)
        out_q: QParams = [(0.0, 0)] * len(expected)
        seconds["export"] = time.monotonic() - t
        seconds["quantize"] = 0.0
    else:
        with phase(options.model, "exporting"):
            graph_module = export.export_for_quantization(loaded.module, inputs, options.strict_export)
            if target.kind is TargetKind.ETHOS_U and vela_faults.applies(vela_faults.UNBIND_MATMUL):
                workaround = vela_workarounds.avoid_unbind_matmul(
                    graph_module, split_heads=target.family in ("ethos-u55", "ethos-u65")
                )
                if workaround:
                    workarounds.append(workaround)
                    progress(f"worked around Vela's unbind MatMul issue at {', '.join(workaround.nodes)}")
            if target.kind is TargetKind.ETHOS_U and vela_faults.applies(vela_faults.CONV3D_SLICE):
                cropped = vela_conv3d_crop.crop_conv3d_inputs(graph_module)
                if cropped:
                    workarounds.append(vela_workarounds.Workaround(vela_refusals.VELA_CONV3D_SLICE, tuple(cropped)))
                    progress(f"cropped the input of {', '.join(cropped)} on the CPU (Vela's CONV3D slice issue)")
            first_export = verify_data.source_lines(graph_module) if options.verify_dir else {}
        seconds["export"] = time.monotonic() - t
        progress(f"quantizing ({mode.value}, {len(samples)} calibration sample(s))")
        t = time.monotonic()
        with phase(options.model, "quantizing"):
            if target.kind is TargetKind.CORTEX_M:
                # The cortex_m passes need 4-D activations channels-last, so
                # a 4-D input is exported so; token ids, frames and feature
                # vectors are another rank and pass unchanged (layout.fitting).
                input_layout = layout.fitting(inputs, layout.InputLayout.NHWC)
                quantized = cortex_m.quantize(loaded.module, inputs, samples)
            else:
                quantized = quantization.quantize(
                    graph_module,
                    request.compile_spec,
                    mode,
                    samples,
                    a16w8_modules=options.a16w8_modules,
                    scheme=quantization.Scheme(
                        options.weights, options.per_channel, options.io_quantization, options.quantizer_setup
                    ),
                )
            with torch.no_grad():
                produced = quantized(*inputs)
                expected, names = as_tuple(produced), output_names(produced)
            in_q, out_q = quantization.io_quantization(quantized)
            # Quantized once in the model's own layout; only the export sees the layout.
            # Quantized branches are exported strictly, as ExecuTorch's
            # pipelines do: torch's non-strict export fails to functionalize
            # a quantized `cond` inside a branch ("FunctionalTensor on its own").
            strict = options.strict_export or quantization.quantizes_branches(quantized, request.compile_spec)
            program_to_lower = export.export_program(quantized, laid_out[input_layout], strict)
        seconds["quantize"] = time.monotonic() - t
        progress(f"quantized in {seconds['quantize']:.1f} s")
    return Prepared(
        float_module=loaded.module,
        source_module=loaded.module if quantized is None else quantized,
        quantized=quantized,
        inputs=inputs,
        laid_out=laid_out,
        input_layout=input_layout,
        program_to_lower=program_to_lower,
        calibrated=calibrated,
        samples=samples,
        expected=expected,
        output_names=names,
        input_qparams=in_q,
        output_qparams=out_q,
        workarounds=tuple(workarounds),
        first_export=first_export,
        seconds=seconds,
    )
