"""The digits example's reference figures, computed from scikit-learn's data
and PyTorch alone: the held-out split and the float model's scores on it."""

from __future__ import annotations

import os

import numpy as np
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from ethosu_sdk.models.digits_cnn import DigitsCnn

WEIGHTS = os.path.join("examples", "digits", "digits_cnn.pt")


def held_out() -> tuple[np.ndarray, np.ndarray]:
    """(images N x 8 x 8 in 0..1, labels) of the split examples/digits/train.py
    documents: 20% held out, seed 0, stratified."""
    digits = load_digits()
    _, images, _, labels = train_test_split(
        digits.images / 16.0, digits.target, test_size=0.2, random_state=0, stratify=digits.target
    )
    return images.astype(np.float32), labels


def float_scores(images: np.ndarray) -> np.ndarray:
    """The trained float model's outputs (N x 10) for images N x 8 x 8."""
    model = DigitsCnn()
    model.load_state_dict(torch.load(WEIGHTS, weights_only=True))
    model.eval()
    with torch.no_grad():
        return model(torch.from_numpy(np.asarray(images, dtype=np.float32)[:, None])).numpy()
