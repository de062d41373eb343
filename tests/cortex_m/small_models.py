"""Small models for the cortex_m:: whole-program tests and the Ethos-U
fallback tests, each also as a `function() -> (nn.Module, example inputs)`
that `ethosu_model(model = "small_models:NAME", model_deps = ...)` takes."""

from __future__ import annotations

import torch


class SmallCnn(torch.nn.Module):
    """conv + ReLU, depthwise + ReLU6, a 1x1 conv with a residual add, a 1x1
    classifier and average pooling, a fully connected layer: MobileNet's
    operators at toy size."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.dw = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.pw = torch.nn.Conv2d(8, 8, 1)
        self.head = torch.nn.Conv2d(8, 6, 1)
        self.fc = torch.nn.Linear(6, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv(x))
        y = torch.nn.functional.relu6(self.dw(x))
        x = self.pw(y) + x
        # Global pooling over 7x7, as MobileNetV2's: an odd count, so no mean
        # falls on the half ties at which the reference's float rounding and
        # the kernel's exact rounding may part (a 2x2 pool here gave 2 of 80
        # outputs one step apart; cc/kernels/cortex_m/README.md).
        return self.fc(torch.nn.functional.avg_pool2d(self.head(x), 7).flatten(1))


def small_cnn() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """SmallCnn with seeded weights and input, as make_programs builds it."""
    torch.manual_seed(0)
    model = SmallCnn().eval()
    return model, (torch.randn(1, 3, 14, 14),)


class StridedPoolNet(torch.nn.Module):
    """Two convolutions with ReLU, then a 4x4 average pool of stride 4. The
    Ethos-U55 partitioner refuses the pool (ExecuTorch's U55 pooling check:
    strides 1 to 3 only), so it stays on the CPU after the NPU's partition;
    the cortex_m passes make it cortex_m::quantized_avg_pool2d. It is the
    last operator, so the output is the int8 kernel's own result, at most
    one step from PyTorch's float mean rounded."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 8, 3, padding=1)
        self.pw = torch.nn.Conv2d(8, 8, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.pw(torch.relu(self.conv(x))))
        return torch.nn.functional.avg_pool2d(y, 4, 4)


def strided_pool() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return StridedPoolNet().eval(), (torch.randn(1, 4, 16, 16),)


class DilatedUpsampleNet(torch.nn.Module):
    """A convolution with ReLU, then a transposed convolution of stride 2 and
    dilation 2. ExecuTorch's Arm partitioner refuses dilated transposed
    convolutions on every Ethos-U, the U85 included ("Transpose convolutions
    with dilation are not supported"), so it stays on the CPU; the cortex_m
    passes make it cortex_m::quantized_transpose_conv2d. Last, so the output
    is the int8 kernel's own."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 8, 3, padding=1)
        self.up = torch.nn.ConvTranspose2d(8, 8, 3, stride=2, padding=1, dilation=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.up(torch.relu(self.conv(x)))


def dilated_upsample() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return DilatedUpsampleNet().eval(), (torch.randn(1, 4, 8, 8),)
