"""U85Step quantized exactly as the SDK's compile of `:u85_model` quantized
it, for the checks that stand beside the firmware (u85_check.py's token by
token reference, u85_perplexity.py's int8 and A16W8 stages).

The same code path as python/ethosu_sdk/aot/stages/stage_quantize.py for an
Ethos-U85 target: the step from u85_step.build, the SDK's export for
quantization, its Vela unbind workaround, its PT2E quantization with the
same compile spec, and the calibration files loaded by the SDK's own loader
in the model's order. `check_same_as_compiled` then proves it: the graph's
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


class ReferenceError(Exception):
    pass


def quantized_step(calibration: Sequence[str], mode: QuantMode = QuantMode.INT8) -> torch.fx.GraphModule:
    """U85Step through the SDK's quantization for TARGET, calibrated on the model's sample files."""
    from executorch.backends.arm.ethosu import EthosUCompileSpec

    from ethosu_sdk.aot import calibration as sdk_calibration
    from ethosu_sdk.aot import export, quantization
    from ethosu_sdk.aot.workarounds import vela_workarounds

    step, inputs = build()
    samples = sdk_calibration.calibration_samples(None, list(calibration), inputs).samples
    graph = export.export_for_quantization(step, inputs)
    vela_workarounds.avoid_unbind_matmul(graph, split_heads=False)
    return quantization.quantize(graph, EthosUCompileSpec(TARGET), mode, samples)


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
