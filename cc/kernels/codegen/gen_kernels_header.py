"""Writes kernels.h, the kernels' typed declarations, from operators.yaml.

gen_kernels_header --out=kernels.h
"""

from __future__ import annotations

from typing import List

import kernel_codegen
import operator_table
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("out", None, "Output header path.")


def main(argv: List[str]) -> None:
    del argv
    with open(FLAGS.out, "w") as f:
        f.write(kernel_codegen.header_source(operator_table.load()))


if __name__ == "__main__":
    flags.mark_flag_as_required("out")
    app.run(main)
