"""The downstream repository's own model: a tiny image classifier, written
here, not in the SDK's zoo."""

import torch
from torch import nn


class TinyCnn(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1),
            nn.ReLU6(),
            nn.Conv2d(8, 8, 3, padding=1, groups=8),
            nn.ReLU6(),
            nn.Conv2d(8, 16, 1),
            nn.ReLU6(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(torch.flatten(self.features(x), 1))


def build() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """The entry point ethosu_model calls: (module, example inputs)."""
    torch.manual_seed(7)
    return TinyCnn().eval(), (torch.randn(1, 3, 32, 32),)
