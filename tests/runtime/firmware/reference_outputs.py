"""Runs a .pte with ExecuTorch's host runtime (`executorch.runtime`) on the
inputs of a tensor file and writes the outputs as a tensor file: the
expected outputs that a firmware compares itself with on the board.

    reference_outputs --pte=p.pte --input=in.tensors --out=expected.tensors
"""

from __future__ import annotations

import struct
from typing import List

import executorch.kernels.quantized  # noqa: F401  (quantized_decomposed kernels)
import numpy as np
import torch
from absl import app, flags
from executorch.runtime import Runtime
from make_programs import from_memory_order, io_dim_orders, tensor_file

FLAGS = flags.FLAGS
flags.DEFINE_string("pte", None, "Program.")
flags.DEFINE_string("input", None, "Input tensor file.")
flags.DEFINE_string("out", None, "Output tensor file.")

_NUMPY = {0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64, 6: np.float32, 7: np.float64, 11: np.bool_}


def read_tensor_file(path: str) -> List[torch.Tensor]:
    with open(path, "rb") as f:
        data = f.read()
    (count,) = struct.unpack_from("<I", data, 8)
    # Record header: 64 bytes in version 2 (ESDKTEN2), 56 in version 1.
    header = 64 if data[:8] == b"ESDKTEN2" else 56
    offset, out = 16, []
    for _ in range(count):
        dtype, rank, *sizes = struct.unpack_from("<II8I", data, offset)
        (nbytes,) = struct.unpack_from("<Q", data, offset + 48)
        array = np.frombuffer(data[offset + header : offset + header + nbytes], dtype=_NUMPY[dtype])
        out.append(torch.from_numpy(array.reshape(sizes[:rank]).copy()))
        offset += header + (nbytes + 7) // 8 * 8
    return out


def main(argv: List[str]) -> None:
    del argv
    method = Runtime.get().load_program(FLAGS.pte).load_method("forward")
    # Tensor files hold tensors in memory order (schema/tensor_file.md).
    with open(FLAGS.pte, "rb") as f:
        input_orders, output_orders = io_dim_orders(f.read())
    inputs = [from_memory_order(t, order) for t, order in zip(read_tensor_file(FLAGS.input), input_orders)]
    outputs = method.execute(inputs)
    with open(FLAGS.out, "wb") as f:
        f.write(tensor_file(list(outputs), output_orders))


if __name__ == "__main__":
    flags.mark_flags_as_required(["pte", "input", "out"])
    app.run(main)
