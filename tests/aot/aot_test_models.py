"""Models for error-path and option tests, loaded as `aot_test_models:<function>`:
each function returns (nn.Module, example input tuple)."""

from __future__ import annotations

import torch
from torch import nn


class _SortsFeatures(nn.Module):
    """Linear layers around a sort, which the Arm backend cannot lower."""

    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Linear(16, 16)
        self.second = nn.Linear(16, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.first(x))
        y = torch.sort(y, dim=-1).values
        return self.second(y)


class _DataDependentBranch(nn.Module):
    """Python control flow on a tensor's value: torch.export cannot trace it."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.sum().item() > 0:
            return x * 2
        return x - 1


def partly_delegable() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return _SortsFeatures(), (torch.randn(1, 16),)


def not_exportable() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    return _DataDependentBranch(), (torch.randn(1, 8),)


def conv3d_cropped() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """ExecuTorch's conformance case 3x3_1x3x8x9_st3_pd0_dl1_needs_adjust_pass:
    depth and width 8 are not 3 plus a multiple of the stride 3, so ExecuTorch
    crops them to 6 with a TOSA SLICE (python/ethosu_sdk/aot/workarounds/vela_refusals.py)."""
    torch.manual_seed(0)
    return nn.Conv3d(3, 3, 3, stride=3), (torch.randn(1, 3, 8, 9, 8),)


class _ConvLinear(nn.Module):
    """A convolution and a linear layer: the weights a quantizer scales
    per channel or per tensor (tests/aot quantization options)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.linear = nn.Linear(8 * 6 * 6, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(torch.relu(self.conv(x)).flatten(1))


def conv_linear() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return _ConvLinear(), (torch.randn(1, 3, 8, 8),)
