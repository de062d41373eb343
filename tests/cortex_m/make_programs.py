"""Whole programs through ExecuTorch's cortex_m lowering (CortexMQuantizer,
CortexMPassManager; python/ethosu_sdk/aot/cortex_m.py), with their input and
the lowered graph's own outputs run in Python (the cortex_m operators'
reference), for the host runner to reproduce bit for bit.

    make_programs --out_dir=DIR   writes NAME.pte, NAME.tensors, NAME.expected.tensors
"""

from __future__ import annotations

from ethosu_sdk.host_numerics import pin_torch

import os
from typing import Callable, Dict, List, Tuple

import torch
from absl import app, flags
from executorch.exir._serialize._program import deserialize_pte_binary
from small_models import SmallCnn

from ethosu_sdk.aot import cortex_m
from ethosu_sdk.aot.layout import in_memory_order
from ethosu_sdk.tensors.tensor_file import write_tensor_file

FLAGS = flags.FLAGS
flags.DEFINE_string("out_dir", None, "Output directory.")


def _mobilenet_v2() -> torch.nn.Module:
    from ethosu_sdk.models.mobilenet_v2 import MobileNetV2

    return MobileNetV2()


PROGRAMS: Dict[str, Tuple[Callable[[], torch.nn.Module], Tuple[int, ...]]] = {
    "small_cnn_m55": (SmallCnn, (1, 3, 14, 14)),
    "mobilenet_v2_m55": (_mobilenet_v2, (1, 3, 224, 224)),
}


def build(name: str) -> Tuple[bytes, List[torch.Tensor], List[torch.Tensor]]:
    make_model, shape = PROGRAMS[name]
    torch.manual_seed(0)
    model = make_model().eval()
    inputs = [torch.randn(*shape)]
    converted = cortex_m.quantize(model, inputs)
    lowered = cortex_m.lower(converted, inputs, "cortex-m55")
    return lowered.program.buffer, [cortex_m.channels_last(t) for t in inputs], list(lowered.expected)


def main(argv: List[str]) -> None:
    del argv
    pin_torch()  # the same bytes on every host
    os.makedirs(FLAGS.out_dir, exist_ok=True)
    for name in PROGRAMS:
        pte, inputs, expected = build(name)
        with open(os.path.join(FLAGS.out_dir, name + ".pte"), "wb") as f:
            f.write(pte)
        # Tensor files hold each tensor in memory order, in the dim order the
        # program gives it.
        plan = deserialize_pte_binary(pte).program.execution_plan[0]
        for suffix, tensors, indices in (
            (".tensors", inputs, plan.inputs),
            (".expected.tensors", expected, plan.outputs),
        ):
            write_tensor_file(
                os.path.join(FLAGS.out_dir, name + suffix),
                [in_memory_order(t, plan.values[i].val.dim_order) for t, i in zip(tensors, indices)],
            )


if __name__ == "__main__":
    flags.mark_flag_as_required("out_dir")
    app.run(main)
