"""A small fully convolutional network whose output is a feature map
(N, C, H, W), so an NHWC program has an image at both ends: the input and
the output both lie channels-last in memory. ExecuTorch's convention
(ModelUnderTest, ModelInputs); torch's RNG is seeded by the SDK."""

import torch
from torch import nn


class FeatureNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.ReLU6(),
            nn.Conv2d(16, 16, 3, padding=1, groups=16),
            nn.ReLU(),
            nn.Conv2d(16, 8, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)


ModelUnderTest = FeatureNet().eval()
ModelInputs = (torch.randn(1, 3, 32, 32),)
