"""A multilayer perceptron ending in softmax: fully connected layers only."""

from __future__ import annotations

import torch
from torch import nn


class MlpSoftmax(nn.Module):
    def __init__(self, in_features: int = 64, hidden: tuple[int, ...] = (128, 64), num_classes: int = 10):
        super().__init__()
        layers: list[nn.Module] = []
        width = in_features
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, num_classes))
        self.body = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.body(x), dim=-1)
