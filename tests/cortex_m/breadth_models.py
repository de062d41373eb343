"""Models beyond image CNNs for the NPU-less Cortex-M targets (issue 46),
each a `function() -> (nn.Module, example inputs)` for `ethosu_model`.

- frames_and_tokens: inputs of other ranks and dtypes beside each other:
  MFCC frames (1, 20, 10) through a 1-D convolution, int64 token ids
  (1, 16) through an embedding; a tuple of two outputs. The cortex_m path
  makes 4-D inputs channels-last; these two must pass unchanged.
- gated_island_cnn: a CNN with a squeeze-and-excitation gate (hardsigmoid)
  and float operators between its int8 layers (torch.fmod, then
  torch.minimum, which the quantizer makes cortex_m::minimum): the fmod
  stays on a portable kernel, fed channels-last activations, as
  ExecuTorch's portable library takes them. (Hardswish, whose
  cortex_m::quantized_mul gets an operand zero point of -221 from
  ExecuTorch's passes, is covered by the kernel cases and the
  nn_modules[hardswish] case of bench/conformance_cortex_m.)
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

VOCABULARY = 50
TOKENS = 16


class FramesAndTokens(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv1d(20, 16, 3, padding=1)
        self.frames_fc = nn.Linear(16 * 10, 4)
        self.embedding = nn.Embedding(VOCABULARY, 16)
        self.tokens_fc = nn.Linear(16, 16)
        self.tokens_out = nn.Linear(16, 3)

    def forward(self, frames: torch.Tensor, ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        keyword = self.frames_fc(torch.relu(self.conv(frames)).flatten(1))
        intent = self.tokens_out(torch.relu(self.tokens_fc(self.embedding(ids))).mean(1))
        return keyword, intent


def frames_and_tokens() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(46)
    model = FramesAndTokens().eval()
    frames = torch.randn(1, 20, 10)
    ids = torch.randint(0, VOCABULARY, (1, TOKENS), dtype=torch.int64)
    return model, (frames, ids)


class GatedIslandCnn(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.squeeze = nn.Conv2d(8, 4, 1)
        self.excite = nn.Conv2d(4, 8, 1)
        self.mid = nn.Conv2d(8, 8, 3, padding=1)
        self.head = nn.Conv2d(8, 4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.stem(x))
        gate = F.hardsigmoid(self.excite(torch.relu(self.squeeze(x.mean((2, 3), keepdim=True)))))
        y = self.mid(x * gate)
        # The float island: operators the cortex_m quantizer leaves in float.
        y = torch.minimum(torch.fmod(y, 0.75), torch.fmod(y, 0.5))
        return self.head(y)


def gated_island_cnn() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(46)
    return GatedIslandCnn().eval(), (torch.randn(1, 3, 8, 8),)
