"""Models whose outputs are not a tensor or a flat tuple (detection heads
often return dicts), loaded as `output_models:<function>`."""

from __future__ import annotations

import torch
from torch import nn


class DictHead(nn.Module):
    """A convolution trunk with two heads returned by name."""

    def __init__(self) -> None:
        super().__init__()
        self.trunk = nn.Conv2d(8, 16, 3, padding=1)
        self.boxes = nn.Conv2d(16, 4, 1)
        self.scores = nn.Linear(16, 3)

    def forward(self, x: torch.Tensor) -> dict[str, torch.Tensor]:
        y = torch.relu(self.trunk(x))
        return {"boxes": self.boxes(y), "scores": self.scores(torch.mean(y, dim=(2, 3)))}


def dict_head() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return DictHead().eval(), (torch.randn(1, 8, 12, 12),)
