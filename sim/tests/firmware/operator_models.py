"""The NPU firmware tests' operator models, loaded as `operator_models:<function>`:
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


class _Operators(nn.Module):
    """Upsampling by 2 and 4 (nearest; bilinear where the NPU resizes),
    torch.flip on each axis of a convolution's output and torch.abs of it,
    one output each."""

    def __init__(self, bilinear: bool, flip_axes: tuple[int, ...]) -> None:
        super().__init__()
        self.conv = nn.Conv2d(16, 16, 1)
        self.modes = ["nearest", "bilinear"] if bilinear else ["nearest"]
        self.flip_axes = flip_axes

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        outputs = [
            nn.functional.interpolate(x, scale_factor=scale, mode=mode) for mode in self.modes for scale in (2, 4)
        ]
        y = self.conv(x)
        outputs += [torch.flip(y, dims=[axis]) for axis in self.flip_axes]
        outputs.append(torch.abs(y))
        return tuple(outputs)


def operators_u85() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """Ethos-U85: NPU_OP_RESIZE (nearest and bilinear), OFM reverse, elementwise ABS."""
    torch.manual_seed(0)
    return _Operators(bilinear=True, flip_axes=(2, 3, 1)), (torch.randn(1, 16, 5, 6),)


def operators_u55() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """Ethos-U55: nearest through IFM upscale, flips of H (a negative stride)
    and C (per-channel operations), elementwise ABS. ExecuTorch keeps bilinear and width
    flips on the CPU for U55, and the runtime has no flip kernel."""
    torch.manual_seed(0)
    return _Operators(bilinear=False, flip_axes=(2, 1)), (torch.randn(1, 16, 5, 6),)
