"""Calibration samples of U85Step for ethosu_model: the float step's inputs
at spread positions of calibration.txt (training text, four windows of
CACHE_LENGTH characters, never the held-out topics), teacher-forced so the
caches hold what generation puts there.

    python examples/lm/u85_calibration.py --text=calibration.txt --out_dir=DIR

writes DIR/00.tensors ... one sample (every step input) each.
"""

from __future__ import annotations

import os
from typing import List

from absl import app, flags
from tiny_lm import CACHE_LENGTH, encode
from u85_step import U85Step, load_lm, run

from ethosu_sdk.tensors.tensor_file import encode as encode_tensors

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES_PER_WINDOW = 8
flags.DEFINE_string("text", os.path.join(HERE, "calibration.txt"), "Calibration text, windows of CACHE_LENGTH.")
flags.DEFINE_string("weights", os.path.join(HERE, "tiny_lm.pt"), "TinyLm's state dict (train.py).")
flags.DEFINE_string("out_dir", None, "Where the samples are written.")
FLAGS = flags.FLAGS


def samples(text: str, weights: str) -> List[List]:
    """Every window's calls at SAMPLES_PER_WINDOW positions spread over it (the last included)."""
    step = U85Step(load_lm(weights)).eval()
    ids = encode(text)
    every = CACHE_LENGTH // SAMPLES_PER_WINDOW
    chosen = []
    for start in range(0, len(ids) - CACHE_LENGTH + 1, CACHE_LENGTH):
        for position, (inputs, _) in enumerate(run(step, ids[start : start + CACHE_LENGTH])):
            if position % every == every - 1:
                chosen.append([t.clone().numpy() for t in inputs])
    return chosen


def main(argv: List[str]) -> None:
    del argv
    with open(FLAGS.text) as f:
        chosen = samples(f.read(), FLAGS.weights)
    os.makedirs(FLAGS.out_dir, exist_ok=True)
    for i, sample in enumerate(chosen):
        with open(os.path.join(FLAGS.out_dir, f"{i:02d}.tensors"), "wb") as f:
            f.write(encode_tensors(sample))


if __name__ == "__main__":
    flags.mark_flag_as_required("out_dir")
    app.run(main)
