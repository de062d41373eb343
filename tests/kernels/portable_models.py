"""Models whose CPU part needs the portable kernels of issue 31, plugged in
as a downstream library would (ethosu_model's `module:function`)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

VOCABULARY = 100  # token ids in [0, VOCABULARY)
TOKENS = 16


class DetectionNeck(nn.Module):
    """A small detector: a strided backbone, an FPN-style neck that upsamples
    the coarse map bilinearly (the Ethos-U55 has no bilinear resize: it stays
    on the CPU) and adds the finer one, and a box/class head."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.lateral = nn.Conv2d(8, 16, 1)
        self.head = nn.Conv2d(16, 6, 3, padding=1)  # 4 box offsets + 2 class scores per cell

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = self.stem(x)
        coarse = self.down(fine)
        up = F.interpolate(coarse, scale_factor=2.0, mode="bilinear", align_corners=False)
        return self.head(up + self.lateral(fine))


class EmbeddingBagClassifier(nn.Module):
    """A text classifier over int64 token ids: the embedding rows of the
    tokens averaged (an embedding bag in mean mode), then a linear layer."""

    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(VOCABULARY, 32)
        self.classifier = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.embedding(ids).mean(dim=1))


def detection() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(31)
    return DetectionNeck().eval(), (torch.randn(1, 3, 32, 32),)


def text_classifier() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(31)
    ids = torch.randint(0, VOCABULARY, (1, TOKENS), dtype=torch.int64)
    return EmbeddingBagClassifier().eval(), (ids,)
