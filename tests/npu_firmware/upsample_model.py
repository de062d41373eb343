"""The NPU firmware tests' upsampling model, loaded as `upsample_model:<function>`:
each function returns (nn.Module, example input tuple)."""

from __future__ import annotations

import torch
from torch import nn


class _NearestX2(nn.Module):
    """F.interpolate by 2, nearest: one NPU_OP_RESIZE on an Ethos-U85."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.interpolate(x, scale_factor=2, mode="nearest")


def nearest_x2() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return _NearestX2(), (torch.randn(1, 16, 5, 6),)
