"""Trains the digits_cnn zoo model on scikit-learn's bundled load_digits and
writes the weights and the held-out split that ship beside this script.

    python examples/digits/train.py            # from the venv; seconds on a CPU

Deterministic: a fixed seed, a fixed stratified split, one torch thread and
full-batch training, so a re-run writes the same weights. Outputs:
  digits_cnn.pt   the state dict (ethosu_model(state_dict = ...))
  eval/NNNN.npz   the held-out split, one sample a file (python/ethosu_sdk/evaluate)
  calibration/NNNN.npz  the first CALIBRATION_SAMPLES training images (PT2E calibration)
"""

from __future__ import annotations

import os

import numpy as np
import torch
from absl import app, flags
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from ethosu_sdk.models.digits_cnn import DigitsCnn

HERE = os.path.dirname(os.path.abspath(__file__))
flags.DEFINE_string("output_dir", HERE, "Where digits_cnn.pt and eval/ are written.")
flags.DEFINE_integer("epochs", 300, "Full-batch Adam steps.")
FLAGS = flags.FLAGS

SEED = 0
HELD_OUT = 0.2  # of 1,797 images: 360 held out
PIXEL_SCALE = 16.0  # load_digits' pixels are 0..16
LEARNING_RATE = 1e-2
WEIGHT_DECAY = 1e-4
CALIBRATION_SAMPLES = 64  # training images, never held-out ones


def _data() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    digits = load_digits()
    images = (digits.images / PIXEL_SCALE).astype(np.float32)[:, None]  # N x 1 x 8 x 8
    return train_test_split(
        images, digits.target.astype(np.int64), test_size=HELD_OUT, random_state=SEED, stratify=digits.target
    )


def _accuracy(model: torch.nn.Module, x: np.ndarray, y: np.ndarray) -> float:
    with torch.no_grad():
        return float((model(torch.from_numpy(x)).argmax(1).numpy() == y).mean())


def main(argv: list[str]) -> None:
    del argv
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    x_train, x_test, y_train, y_test = _data()
    model = DigitsCnn()
    optimiser = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    inputs, targets = torch.from_numpy(x_train), torch.from_numpy(y_train)
    for _ in range(FLAGS.epochs):
        optimiser.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        optimiser.step()
    model.eval()
    print(
        f"train top-1 {_accuracy(model, x_train, y_train):.4f}, "
        f"held-out top-1 {_accuracy(model, x_test, y_test):.4f} ({len(y_test)} images)"
    )
    torch.save(model.state_dict(), os.path.join(FLAGS.output_dir, "digits_cnn.pt"))
    eval_dir = os.path.join(FLAGS.output_dir, "eval")
    os.makedirs(eval_dir, exist_ok=True)
    for index, (image, label) in enumerate(zip(x_test, y_test)):
        np.savez(os.path.join(eval_dir, f"{index:04d}.npz"), input=image[None], label=np.int64(label))
    calibration_dir = os.path.join(FLAGS.output_dir, "calibration")
    os.makedirs(calibration_dir, exist_ok=True)
    for index, image in enumerate(x_train[:CALIBRATION_SAMPLES]):
        np.savez(os.path.join(calibration_dir, f"{index:04d}.npz"), input=image[None])


if __name__ == "__main__":
    app.run(main)
