"""A small CNN for scikit-learn's bundled handwritten digits (8x8, 10 classes).

Trained by examples/digits/train.py; the weights ship beside that script.
Input: one 8x8 image, pixel values 0..16 divided by 16 (train.py's PIXEL_SCALE).
"""

from __future__ import annotations

import torch
from torch import nn


class DigitsCnn(nn.Module):
    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 8x8 -> 4x4
        )
        self.classifier = nn.Linear(32 * 4 * 4, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(torch.flatten(self.features(x), 1))
