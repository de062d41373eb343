"""Models whose Ethos-U partitions the verification cannot take as built
(loaded as `skip_models:<function>`)."""

from __future__ import annotations

import torch
from torch import nn


class _CondBranches(nn.Module):
    """A torch.cond whose branches each hold a convolution: the U55 has no
    control flow, so the cond stays on the CPU and each branch's convolution
    becomes a delegate inside that branch, which the program calls from the
    cond, not from its top-level graph."""

    def __init__(self) -> None:
        super().__init__()
        self.then_conv = nn.Conv2d(4, 4, kernel_size=1)
        self.else_conv = nn.Conv2d(4, 4, kernel_size=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cond(x.sum() > 0, lambda t: self.then_conv(t), lambda t: self.else_conv(t), (x,))


def cond_branches() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return _CondBranches().eval(), (torch.rand(1, 4, 8, 8),)
