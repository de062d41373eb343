"""Runs a sequence of calls on one method loaded by ExecuTorch's host
runtime (`executorch.runtime`) and writes every call's outputs, call after
call, as one tensor file: the expected outputs of a stateful program, which
a runner compares itself with call by call.

    sequence_reference --pte=p.pte --input=calls.tensors --out=expected.tensors

The three flags repeat, one of each per program, so that one process (one
import of torch and ExecuTorch) writes every program's expected outputs.

The input file holds CALLS x (the method's inputs); all of this module's
programs have default dim orders, so tensors are read and written as they lie.
"""

from __future__ import annotations

from typing import List

import torch
from absl import app, flags
from executorch.runtime import Runtime

from ethosu_sdk.tensors.tensor_file import StoredTensor, encode, read_tensor_file

FLAGS = flags.FLAGS
flags.DEFINE_multi_string("pte", None, "Program (repeated: one per program).")
flags.DEFINE_multi_string("input", None, "Tensor file: the inputs of every call, call after call (one per --pte).")
flags.DEFINE_multi_string(
    "out", None, "Tensor file written: the outputs of every call, call after call (one per --pte)."
)
flags.DEFINE_float(
    "step_of_range",
    0.0,
    "If > 0, each float output is compared within this fraction of its largest magnitude (recorded as "
    "its step: the protocol's q1step rule) instead of 1e-5 per element: a deep float network's logits "
    "near zero differ by more than 1e-5 of themselves across summation orders.",
)


def executorch_sequence(pte: str, inputs: List[torch.Tensor], per_call: int) -> List[torch.Tensor]:
    """Loads the method once and calls it len(inputs) / per_call times."""
    method = Runtime.get().load_program(pte).load_method("forward")
    outputs: List[torch.Tensor] = []
    for first in range(0, len(inputs), per_call):
        outputs += [o.clone() for o in method.execute(inputs[first : first + per_call])]
    return outputs


def main(argv: List[str]) -> None:
    del argv
    if not len(FLAGS.pte) == len(FLAGS.input) == len(FLAGS.out):
        raise app.UsageError("--pte, --input and --out: one of each per program")
    for pte, input_path, out in zip(FLAGS.pte, FLAGS.input, FLAGS.out):
        write_expected(pte, input_path, out)


def write_expected(pte: str, input_path: str, out: str) -> None:
    inputs = [torch.from_numpy(t.data.copy()) for t in read_tensor_file(input_path)]
    per_call = Runtime.get().load_program(pte).metadata("forward").num_inputs()
    outputs = executorch_sequence(pte, inputs, per_call)
    records = [
        StoredTensor(o.numpy(), scale=FLAGS.step_of_range * float(o.abs().max()))
        if FLAGS.step_of_range > 0 and o.is_floating_point()
        else o.numpy()
        for o in outputs
    ]
    with open(out, "wb") as f:
        f.write(encode(records))


if __name__ == "__main__":
    flags.mark_flags_as_required(["pte", "input", "out"])
    app.run(main)
