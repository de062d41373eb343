"""Models whose Ethos-U85 command stream uses an NPU feature the functional
model does not have (loaded as `unmodelled_models:<function>`)."""

from __future__ import annotations

import torch
from torch import nn


class _IntegerDivide(nn.Module):
    """int32 division rounding toward zero (TOSA INTDIV): on the U85 Vela
    emits one elementwise DIV (mode 11), which the model does not run."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.div(x, y, rounding_mode="trunc")


def integer_divide() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    generator = torch.Generator().manual_seed(0)
    x = torch.randint(-1000, 1000, (1, 4, 8), generator=generator, dtype=torch.int32)
    y = torch.randint(1, 100, (1, 4, 8), generator=generator, dtype=torch.int32)
    return _IntegerDivide(), (x, y)
