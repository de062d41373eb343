"""Models whose Ethos-U85 command stream uses an NPU feature the functional
model does not have (loaded as `unmodelled_models:<function>`)."""

from __future__ import annotations

import torch
from torch import nn


class _Greater(nn.Module):
    """x > y: on the U85 Vela emits an elementwise comparison (mode 19),
    as for ExecuTorch's own test_gt cases."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x > y


def greater() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    generator = torch.Generator().manual_seed(0)
    return _Greater(), (torch.rand(1, 4, 8, generator=generator), torch.rand(1, 4, 8, generator=generator))
