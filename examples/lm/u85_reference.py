"""U85Step quantized exactly as the SDK's compile of `:u85_model` quantized
it, for the checks that stand beside the firmware (u85_check.py's token by
token reference, u85_perplexity.py's int8 and A16W8 stages).

The SDK's own `quantize_model` (python/ethosu_sdk/aot/compile.py): the same
model, target and calibration files as `:u85_model`, through the same
export, Vela workaround, PT2E quantization and calibration loader, none of
it repeated here. `check_same_as_compiled` then proves it: the graph's
input and output quantization equal the compiled program's (its summary),
and its int8 logits for the example input equal the model's expected
output bit for bit.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch
from u85_step import build

from ethosu_sdk.aot.targets import QuantMode
from ethosu_sdk.tensors.tensor_file import read_tensor_file

TARGET = "ethos-u85-256"
# What :u85_model compiles (BUILD.bazel).
MODEL = "u85_step:build"


class ReferenceError(Exception):
    pass


def quantized_step(calibration: Sequence[str], mode: QuantMode = QuantMode.INT8) -> torch.fx.GraphModule:
    """U85Step quantized for TARGET as the SDK compiles it (u85_model's
    model, target and calibration files): the SDK's own quantize_model."""
    from ethosu_sdk.aot.compile import CompileOptions, quantize_model

    options = CompileOptions(model=MODEL, target=TARGET, quantize=mode.value, calibration_files=tuple(calibration))
    return quantize_model(options)


def quantized_logits(logits: torch.Tensor, scale: float, zero_point: int) -> np.ndarray:
    return torch.clamp(torch.round(logits / scale) + zero_point, -128, 127).to(torch.int8).numpy().reshape(-1)


def check_same_as_compiled(reference: torch.fx.GraphModule, summary: dict, expected: str) -> None:
    """The reference is the compiled model's quantization: same I/O parameters, same expected logits."""
    from ethosu_sdk.aot import quantization

    ins, outs = quantization.io_quantization(reference)
    compiled = [[(float(t["scale"]), int(t["zero_point"])) for t in summary[k]] for k in ("inputs", "outputs")]
    if [ins, outs] != compiled:
        raise ReferenceError("the reference's input/output quantization differs from the compiled program's summary")
    _, inputs = build()
    with torch.no_grad():
        logits = reference(*inputs)[0]
    out = summary["outputs"][0]
    ours = quantized_logits(logits, out["scale"], out["zero_point"])
    theirs = read_tensor_file(expected)[0].data.reshape(-1)
    if not np.array_equal(ours, theirs):
        raise ReferenceError("the reference quantization differs from the SDK's (expected output of the example input)")
