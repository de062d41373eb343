"""Models for error-path tests, loaded as `aot_test_models:<function>`:
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
