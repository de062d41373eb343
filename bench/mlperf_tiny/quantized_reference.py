"""PyTorch's quantized graph's outputs for a Cortex-M cell, as a `.tensors`
file a run can be checked against (`run_model --expected=...`).

On a Cortex-M target the SDK's reference (`.expected.tensors`) is the graph
after ExecuTorch's cortex_m passes, run in Python on the cortex_m operators'
own reference code. This is the graph before those passes: the PT2E module
`CortexMQuantizer` converted (the same quantization step the build takes),
run by PyTorch on the same example input. The input the build embedded is
read back and must equal the one used here, so both references describe the
same run.
"""

from __future__ import annotations

import sys

import numpy as np
import torch
from absl import app, flags

from ethosu_sdk import host_numerics
from ethosu_sdk.aot import cortex_m, layout, quantization
from ethosu_sdk.aot.options import Summary
from ethosu_sdk.aot.stages.stage_quantize import as_tuple
from ethosu_sdk.models import load_model
from ethosu_sdk.tensors import StoredTensor, read_tensor_file, write_tensor_file

FLAGS = flags.FLAGS
flags.DEFINE_string("model", None, "The model as ethosu_model names it (module:function).", required=True)
flags.DEFINE_string("input", None, "The cell's .input.tensors, to check the input is the build's.", required=True)
flags.DEFINE_string("summary", None, "The cell's .summary.json: the program's dim order of each tensor.", required=True)
flags.DEFINE_string("out", None, "Where to write the quantized graph's outputs (.tensors).", required=True)
flags.DEFINE_integer("seed", 0, "The model's seed (ethosu_model's default).")


def _same_input(inputs: tuple[torch.Tensor, ...], summary: Summary, path: str) -> str | None:
    """None when `path` holds `inputs` in the program's memory order; else why not."""
    stored = read_tensor_file(path)
    if len(stored) != len(inputs):
        return f"{len(stored)} inputs in {path}, the model takes {len(inputs)}"
    for index, (tensor, record, info) in enumerate(zip(inputs, stored, summary.inputs)):
        in_memory = layout.in_memory_order(tensor, info.dim_order)
        if not np.array_equal(np.asarray(record.data), in_memory):
            return f"input {index} in {path} differs from the model's example input"
    return None


def main(argv: list[str]) -> int:
    del argv
    host_numerics.pin_torch()
    loaded = load_model(FLAGS.model, seed=FLAGS.seed)
    inputs = tuple(loaded.example_inputs)
    summary = Summary.read(FLAGS.summary)
    mismatch = _same_input(inputs, summary, FLAGS.input)
    if mismatch:
        print(f"quantized_reference: error: {mismatch}; build both from the same model and seed", file=sys.stderr)
        return 2
    quantized = cortex_m.quantize(loaded.module, inputs)
    with torch.no_grad():
        outputs = as_tuple(quantized(*inputs))
    _, output_qparams = quantization.io_quantization(quantized)
    records = [
        StoredTensor(layout.in_memory_order(t, info.dim_order), scale, zero_point)
        for t, (scale, zero_point), info in zip(outputs, output_qparams, summary.outputs)
    ]
    write_tensor_file(FLAGS.out, records)
    return 0


if __name__ == "__main__":
    app.run(main)
