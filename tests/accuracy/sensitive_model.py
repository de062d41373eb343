"""A model built to be quantization-sensitive: one layer (`wide`) whose output
channel 0 is 200 times its other channels, so per-tensor int8 quantization of
that activation leaves the other channels a few levels each."""

from __future__ import annotations

import torch
from torch import nn

WIDE_GAIN = 200.0


class WideActivation(nn.Module):
    def __init__(self, gain: float):
        super().__init__()
        self.first = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.wide = nn.Linear(32, 32)
        self.head = nn.Linear(32, 10)
        with torch.no_grad():
            self.wide.weight[0] *= gain
            self.wide.bias[0] *= gain

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.wide(self.first(x)))


def build(gain: float = WIDE_GAIN) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return WideActivation(gain).eval(), (torch.randn(1, 16),)
