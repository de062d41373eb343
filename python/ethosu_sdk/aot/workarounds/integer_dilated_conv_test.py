"""ExecuTorch's cortex_m quantized_conv2d reference on a dilated kernel,
under exact_integer_conv2d, against the same operator on the kernel with
the dilation's zeros written in and no dilation: PyTorch's own integer
convolution, which needs no workaround."""

from __future__ import annotations

import executorch.backends.cortex_m.passes  # noqa: F401  (registers torch.ops.cortex_m)
import pytest
import torch
import torch.nn.functional as F

from ethosu_sdk.aot.workarounds.integer_dilated_conv import exact_integer_conv2d

IN_CHANNELS, OUT_CHANNELS, KERNEL = 3, 4, 3


def spread(weight: torch.Tensor, dilation: int) -> torch.Tensor:
    """An OHWI kernel with dilation - 1 zeros between its taps."""
    out, height, width, channels = weight.shape
    size = (height - 1) * dilation + 1, (width - 1) * dilation + 1
    spread = torch.zeros(out, size[0], size[1], channels, dtype=weight.dtype)
    spread[:, ::dilation, ::dilation, :] = weight
    return spread


def conv(weight: torch.Tensor, dilation: int, inputs: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.ops.cortex_m.quantized_conv2d(
        inputs,
        weight,
        bias,
        [1, 1],
        [1, 1],
        [dilation, dilation],
        7,  # input offset: -(zero point)
        -3,  # output offset
        torch.tensor([1_518_500_250, 1_200_000_000, 1_900_000_000, 1_073_741_824], dtype=torch.int32),
        torch.tensor([-9, -8, -10, -7], dtype=torch.int32),
        -128,
        127,
        torch.empty(0, dtype=torch.int8),
    )


@pytest.mark.parametrize("dilation", [2, 3])
def test_dilated_matches_spread_kernel(dilation: int) -> None:
    generator = torch.Generator().manual_seed(dilation)
    inputs = torch.randint(-128, 128, (1, IN_CHANNELS, 12, 11), dtype=torch.int8, generator=generator)
    inputs = inputs.contiguous(memory_format=torch.channels_last)
    weight = torch.randint(
        -127, 128, (OUT_CHANNELS, KERNEL, KERNEL, IN_CHANNELS), dtype=torch.int8, generator=generator
    )
    bias = torch.randint(-5000, 5000, (OUT_CHANNELS,), dtype=torch.int32, generator=generator)
    with exact_integer_conv2d():
        dilated = conv(weight, dilation, inputs, bias)
    undilated = conv(spread(weight, dilation), 1, inputs, bias)
    assert dilated.dtype == torch.int8
    assert torch.equal(dilated, undilated)
    assert dilated.abs().sum() > 0  # not saturated to zero


def test_patch_is_needed_and_undone() -> None:
    """The canary: once PyTorch convolves int32 with a dilation, this fails
    and the workaround goes. The patch must not outlive its context."""
    x = torch.ones(1, 1, 5, 5, dtype=torch.int32)
    w = torch.ones(1, 1, 2, 2, dtype=torch.int32)
    with pytest.raises((NotImplementedError, RuntimeError)):
        F.conv2d(x, w, dilation=2)
    from executorch.backends.cortex_m.ops import operators

    with exact_integer_conv2d():
        assert operators.F is not F
    assert operators.F is F
