"""Calibration and labelled evaluation samples for sensitive_model: inputs
drawn from a fixed seed, each evaluation sample labelled with the float
model's class (so the float stage is right by construction and every miss of
the quantized stages is accuracy quantization lost).

    sensitive_data --calibration_out=a.npz,b.npz --eval_out=c.npz,d.npz
"""

from __future__ import annotations

import sys

import numpy as np
import torch
from absl import app, flags
from sensitive_model import build

FLAGS = flags.FLAGS
flags.DEFINE_list("calibration_out", [], "Calibration .npz files to write (one input array each).")
flags.DEFINE_list("eval_out", [], "Evaluation .npz files to write (the input and its 'label').")

SEED = 1  # not the model's seed (0): samples other than the example input


def main(argv: list[str]) -> int:
    del argv
    model, (example,) = build()
    generator = torch.Generator().manual_seed(SEED)
    for path in FLAGS.calibration_out:
        np.savez(path, x=torch.randn(example.shape, generator=generator).numpy())
    with torch.no_grad():
        for path in FLAGS.eval_out:
            x = torch.randn(example.shape, generator=generator)
            np.savez(path, x=x.numpy(), label=np.int64(int(model(x).argmax())))
    return 0


if __name__ == "__main__":
    sys.exit(app.run(main))
