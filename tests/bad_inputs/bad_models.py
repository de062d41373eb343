"""Model functions that go wrong the ways a user's model code does, loaded as
`bad_models:<function>` (each should return (nn.Module, example input tuple))."""

from __future__ import annotations

import torch
from torch import nn


class _RaisesInForward(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise ValueError("shape mismatch in my layer")


class _Cumprod(nn.Module):
    """torch.cumprod: no Ethos-U lowering, and no table lists it (neither
    cc/kernels/operators.yaml nor refused.yaml: ExecuTorch's portable
    library has no kernel for it either), so it stays an operator without
    a kernel."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=1)


class _Noise(nn.Module):
    """torch.rand: refused on the CPU (a firmware's outputs are reproducible)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + torch.rand(1, 8)


def raises_in_build() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    raise RuntimeError("cannot open weights.bin")


def raises_in_forward() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    return _RaisesInForward(), (torch.randn(1, 4),)


def returns_not_a_module() -> tuple[object, tuple[torch.Tensor, ...]]:
    return "resnet", (torch.randn(1, 4),)


def returns_inputs_not_tensors() -> tuple[nn.Module, tuple[object, ...]]:
    return nn.Linear(4, 2), ([1.0, 2.0, 3.0, 4.0],)


def cumprod() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    return _Cumprod(), (torch.randn(2, 8),)


def noise() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    return _Noise(), (torch.randn(1, 8),)


def too_large_for_sram() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """Two convolutions on 384x384x16 feature maps: 2.25 MiB each in int8, so
    Vela's Shared_Sram schedule needs more SRAM than a Corstone-300 has."""
    model = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1))
    return model, (torch.randn(1, 16, 384, 384),)
