"""Models whose cortex_m lowering is valid for ExecuTorch but holds an
operator the SDK's kernels refuse, for the whole-program bad-input tests
(`ethosu_model(model = "refused_models:NAME", ...)`)."""

from __future__ import annotations

import torch

# The live channel's weight and the input's spread: large enough that input
# scale * weight scale / output scale exceeds 2^30.
_WEIGHT = 1000.0
_INPUT_SPREAD = 10000.0


class ZeroOutputConv(torch.nn.Module):
    """A 1x1 convolution whose output is exactly 0 on the calibration input
    on every host: its one nonzero weight meets an input channel of zeros,
    and the other input channel (which carries the input's spread) meets a
    zero weight. Every product is an exact zero, whatever order or fused
    multiply-add a CPU's convolution uses (a sum that cancels, x*w - x*w,
    did not on every CPU: issue 44). So the output observer takes its
    smallest scale (float32's epsilon) while the input and weight scales are
    large. The cortex_m passes give the convolution a requantization shift
    of 34 (ExecuTorch's quantize_multiplier_aot does not bound it); the
    kernel takes shifts in [-31, 30], as CMSIS-NN's int32 requantization
    does, and refuses it."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 1, 1, bias=False)
        with torch.no_grad():
            self.conv.weight.copy_(torch.tensor([0.0, _WEIGHT]).reshape(1, 2, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def zero_output_conv() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    x = torch.randn(1, 1, 4, 4) * _INPUT_SPREAD
    return ZeroOutputConv().eval(), (torch.cat([x, torch.zeros_like(x)], 1),)
