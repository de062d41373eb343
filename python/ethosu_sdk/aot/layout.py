"""Input layouts: the order in which an image input's bytes reach the program.

PyTorch's models take NCHW tensors; the Ethos-U works in NHWC, so an NCHW
program starts with a transpose on the NPU (about a tenth of MobileNetV2's
cycles on an Ethos-U85). Exporting with a channels-last input (dim order
0, 2, 3, 1) removes it: the program then takes the image as a camera or an
image decoder produces it, pixel by pixel with the channels innermost.

The model is quantized once, in its own layout; only the export changes, so
the quantization parameters, and so the outputs, are the same in both
layouts. Tensor files hold arrays in memory order (schema/tensor_file.md): a
channels-last [1, 3, 224, 224] input is stored as [1, 224, 224, 3].
"""

from __future__ import annotations

import enum
from typing import Sequence

import numpy as np
import torch

from ethosu_sdk.aot.errors import InvalidOptionError


class InputLayout(enum.Enum):
    NCHW = "nchw"  # PyTorch's default (contiguous)
    NHWC = "nhwc"  # channels-last: every 4-D input in dim order 0, 2, 3, 1

    @classmethod
    def parse(cls, text: str) -> "InputLayout":
        try:
            return cls(text.lower())
        except ValueError:
            raise InvalidOptionError(
                f"unknown input layout {text!r}: use one of {', '.join(m.value for m in cls)}"
            ) from None


def has_image_input(inputs: Sequence[torch.Tensor]) -> bool:
    """True when some input is 4-D, the only rank a layout applies to."""
    return any(x.dim() == 4 for x in inputs)


def fitting(inputs: Sequence[torch.Tensor], wanted: InputLayout) -> InputLayout:
    """`wanted` where it fits some input, else NCHW (every input as the model
    takes it): for a layout the SDK chooses, not one the user asked for,
    which `apply` checks and refuses when no input can take it."""
    return wanted if wanted is InputLayout.NCHW or has_image_input(inputs) else InputLayout.NCHW


def apply(inputs: tuple[torch.Tensor, ...], layout: InputLayout) -> tuple[torch.Tensor, ...]:
    """The example inputs to export with: for NHWC, each 4-D input
    channels-last (same values); other inputs unchanged."""
    if layout is InputLayout.NCHW:
        return inputs
    if not has_image_input(inputs):
        shapes = ", ".join(str(list(x.shape)) for x in inputs)
        raise InvalidOptionError(
            f"input layout nhwc needs a 4-D (N, C, H, W) input but the model takes {shapes}: "
            "leave the input layout at nchw"
        )
    return tuple(x.to(memory_format=torch.channels_last) if x.dim() == 4 else x for x in inputs)


def laid_out(inputs: tuple[torch.Tensor, ...], wanted: InputLayout) -> dict[InputLayout, tuple[torch.Tensor, ...]]:
    """The example inputs in every layout they can take (NHWC only with a
    4-D input), computed once for every export; `wanted` (the user's) is
    checked here, so a layout the model cannot take fails before any work."""
    apply(inputs, wanted)
    return {lay: apply(inputs, lay) for lay in InputLayout if lay is InputLayout.NCHW or has_image_input(inputs)}


def in_memory_order(tensor: torch.Tensor, dim_order: Sequence[int]) -> np.ndarray:
    """`tensor`'s values as a row-major array laid out in `dim_order` (the
    program's dim order of that tensor), as tensor files hold it."""
    order = list(dim_order) or list(range(tensor.dim()))
    if sorted(order) != list(range(tensor.dim())):
        raise ValueError(f"dim order {order} does not fit a {tensor.dim()}-D tensor")
    return tensor.detach().permute(order).contiguous().numpy()
