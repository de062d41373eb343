"""Keyword spotting DS-CNN: a strided conv, then depthwise-separable blocks.

Shaped after the DS-CNN (small) of "Hello Edge: Keyword Spotting on
Microcontrollers": a 49x10 MFCC map in, 12 keyword classes out.
"""

from __future__ import annotations

import torch
from torch import nn


class DepthwiseSeparable(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.depthwise = nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.pointwise = nn.Conv2d(channels, channels, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.bn1(self.depthwise(x)))
        return torch.relu(self.bn2(self.pointwise(x)))


class KwsDsCnn(nn.Module):
    def __init__(self, num_classes: int = 12, channels: int = 64, blocks: int = 4):
        super().__init__()
        self.stem = nn.Conv2d(1, channels, (10, 4), stride=(2, 2), padding=(5, 1), bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        self.blocks = nn.Sequential(*[DepthwiseSeparable(channels) for _ in range(blocks)])
        self.fc = nn.Linear(channels, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.stem_bn(self.stem(x)))
        x = self.blocks(x)
        x = torch.mean(x, dim=(2, 3))
        return self.fc(x)
