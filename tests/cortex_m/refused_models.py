"""Models whose cortex_m lowering is valid for ExecuTorch but holds an
operator the SDK's kernels refuse, for the whole-program bad-input tests
(`ethosu_model(model = "refused_models:NAME", ...)`)."""

from __future__ import annotations

import torch

# The weights of the two channels that cancel, and the input's spread: large
# enough that input scale * weight scale / output scale exceeds 2^30.
_WEIGHT = 1000.0
_INPUT_SPREAD = 10000.0


class CancellingConv(torch.nn.Module):
    """A 1x1 convolution whose two input channels are equal and whose two
    weights are opposite: its output is exactly 0 on the calibration input,
    so the output observer takes its smallest scale (float32's epsilon)
    while the input and weight scales are large. The cortex_m passes give
    the convolution a requantization shift of 34 (ExecuTorch's
    quantize_multiplier_aot does not bound it); the kernel takes shifts in
    [-31, 30], as CMSIS-NN's int32 requantization does, and refuses it."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 1, 1, bias=False)
        with torch.no_grad():
            self.conv.weight.copy_(torch.tensor([_WEIGHT, -_WEIGHT]).reshape(1, 2, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def cancelling_conv() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    x = torch.randn(1, 1, 4, 4) * _INPUT_SPREAD
    return CancellingConv().eval(), (torch.cat([x, x], 1),)
