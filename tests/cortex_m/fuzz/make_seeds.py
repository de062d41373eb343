"""Writes the seed corpus of kernel_args_fuzzer: for each cortex_m::
operator, its two smallest generated kernel cases (one of them a case the
kernel must refuse, where the generator has one), each as a one-case file in
the kernel case format (cc/kernels/cortex_m/gen_cases.py). Run from the
venv with the generator on the path:

    PYTHONPATH=cc/kernels/cortex_m python tests/cortex_m/fuzz/make_seeds.py \
        --out_dir=tests/cortex_m/fuzz/corpus
"""

from __future__ import annotations

import os
import re
import struct
from typing import List

import gen_cases
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("out_dir", None, "Directory for the seed files.")
flags.DEFINE_integer("per_operator", 2, "Seeds per operator.")

_HEADER = b"CMKC" + struct.pack("<II", 1, 1)  # version 1, one case


def main(argv: List[str]) -> None:
    del argv
    by_op: dict[str, list[tuple[bool, int, bytes]]] = {}
    for case in gen_cases.all_cases(30):
        body = gen_cases.encode(case)
        by_op.setdefault(case.op, []).append((case.expect_error, len(body), body))
    os.makedirs(FLAGS.out_dir, exist_ok=True)
    for op, cases in sorted(by_op.items()):
        valid = sorted((c for c in cases if not c[0]), key=lambda c: c[1])
        refused = sorted((c for c in cases if c[0]), key=lambda c: c[1])
        chosen = valid[: FLAGS.per_operator - 1] + (refused[:1] or valid[FLAGS.per_operator - 1 : FLAGS.per_operator])
        stem = re.sub(r"[^A-Za-z0-9_]+", "_", op.split("::")[1])
        for index, (_, _, body) in enumerate(chosen):
            with open(os.path.join(FLAGS.out_dir, f"{stem}_{index}"), "wb") as f:
                f.write(_HEADER + body)


if __name__ == "__main__":
    flags.mark_flag_as_required("out_dir")
    app.run(main)
