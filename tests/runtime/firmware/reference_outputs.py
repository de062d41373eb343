"""Runs a .pte with ExecuTorch's host runtime (`executorch.runtime`) on the
inputs of a tensor file and writes the outputs as a tensor file: the
expected outputs that a firmware compares itself with on the board.

    reference_outputs --pte=p.pte --input=in.tensors --out=expected.tensors

The three flags repeat, one of each per program, so that one process (one
import of torch and ExecuTorch) writes every program's expected outputs.
"""

from __future__ import annotations

from typing import List

import executorch.kernels.quantized  # noqa: F401  (quantized_decomposed kernels)
import torch
from absl import app, flags
from executorch.runtime import Runtime
from make_programs import from_memory_order, io_dim_orders, tensor_file

from ethosu_sdk.tensors.tensor_file import read_tensor_file

FLAGS = flags.FLAGS
flags.DEFINE_multi_string("pte", None, "Program (repeated: one per program).")
flags.DEFINE_multi_string("input", None, "Input tensor file (one per --pte).")
flags.DEFINE_multi_string("out", None, "Output tensor file (one per --pte).")


def read_tensors(path: str) -> List[torch.Tensor]:
    return [torch.from_numpy(t.data.copy()) for t in read_tensor_file(path)]


def main(argv: List[str]) -> None:
    del argv
    if not len(FLAGS.pte) == len(FLAGS.input) == len(FLAGS.out):
        raise app.UsageError("--pte, --input and --out: one of each per program")
    for pte, input_path, out in zip(FLAGS.pte, FLAGS.input, FLAGS.out):
        write_expected(pte, input_path, out)


def write_expected(pte: str, input_path: str, out: str) -> None:
    method = Runtime.get().load_program(pte).load_method("forward")
    # Tensor files hold tensors in memory order (schema/tensor_file.md).
    with open(pte, "rb") as f:
        input_orders, output_orders = io_dim_orders(f.read())
    inputs = [from_memory_order(t, order) for t, order in zip(read_tensors(input_path), input_orders)]
    outputs = method.execute(inputs)
    with open(out, "wb") as f:
        f.write(tensor_file(list(outputs), output_orders))


if __name__ == "__main__":
    flags.mark_flags_as_required(["pte", "input", "out"])
    app.run(main)
