"""Models whose Ethos-U85 command stream uses an NPU feature the functional
model does not have (loaded as `unmodelled_models:<function>`)."""

from __future__ import annotations

import torch
from torch import nn


class _StridedConv3d(nn.Module):
    """A 5x5x5 convolution at stride 5: Vela 5.1.0 runs each depth slice on
    the U85 as 1x1 convolutions that keep their accumulators in the NPU. At
    16-bit activations (A16W8) those are 48-bit accumulators, which the
    model does not chain."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv3d(3, 3, kernel_size=5, stride=5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def strided_conv3d() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return _StridedConv3d().eval(), (torch.randn(1, 3, 10, 14, 14),)
