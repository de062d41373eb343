"""A model brought as a file, in ExecuTorch's convention (aot_arm_compiler.py
--model_name=FILE.py): the file defines ModelUnderTest, an nn.Module
instance, and ModelInputs, a tuple of example input tensors. Its weights
come from torch's global RNG, which the SDK seeds while the file runs."""

import torch
from torch import nn


def depthwise_block(channels_in: int, channels_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(channels_in, channels_in, 3, padding=1, groups=channels_in),
        nn.ReLU(),
        nn.Conv2d(channels_in, channels_out, 1),
        nn.ReLU(),
    )


class ConvNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU6())
        self.block = depthwise_block(16, 24)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(24, 10))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.block(self.stem(x)))


ModelUnderTest = ConvNet().eval()
ModelInputs = (torch.randn(1, 3, 32, 32),)
