"""Models of the lowering check's tests (tests/lowering/README.md), loaded as
`lowering_models:<function>`: each returns (nn.Module, example input tuple)."""

from __future__ import annotations

import torch
from torch import nn


class ConvReluCat(nn.Module):
    """Issue 33's reproducer: the concatenation shares one quantization for
    its inputs and output, so the ReLU's output gets a zero point above qmin;
    ExecuTorch 1.5.1 then fuses the ReLU into that quantization and its
    lowering drops the clamp (aot/workarounds/lowering_workarounds.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(16, 16, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cat([x, torch.relu(self.conv(x))], 1)


def conv_relu_cat() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return ConvReluCat(), (torch.randn(1, 16, 24, 24),)


class Neg(nn.Module):
    """ExecuTorch 1.5.1's 16-bit neg (ExecuTorch's test_neg A16W8
    `rank_4_randn_pos`): a NEGATE with no RESCALE, though the quantizer
    gives its input and output different scales (aot/workarounds/lowering_workarounds.py,
    `rescale_negates`)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.neg(x)


def neg() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return Neg(), (torch.randn(1, 4, 4, 4) + 10,)


class RightShift(nn.Module):
    """ExecuTorch 1.5.1's U55 right shift (ExecuTorch's test_rshift U55
    cases): ARITHMETIC_RIGHT_SHIFT with round = True, one off PyTorch's
    floor wherever the last bit shifted out is set
    (aot/workarounds/lowering_workarounds.py, `floor_right_shifts`)."""

    def forward(self, x: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
        return x.bitwise_right_shift(shift)


def right_shift() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    # Every shift amount 0..30 against negative and positive values of
    # several magnitudes, none within 2^30 of int32's minimum (the
    # workaround's range).
    torch.manual_seed(0)
    shift = torch.arange(31, dtype=torch.int32).repeat(4).reshape(1, 4, 31, 1).expand(1, 4, 31, 4)
    magnitude = torch.tensor([1 << 8, 1 << 16, 1 << 24, 1 << 30], dtype=torch.int64).reshape(1, 4, 1, 1)
    x = (torch.rand(1, 4, 31, 4) * 2 - 1) * magnitude
    return RightShift(), (x.to(torch.int32), shift.contiguous())
