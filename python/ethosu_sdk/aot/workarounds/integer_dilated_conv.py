"""The cortex_m reference for dilated integer convolutions.

The SDK's expected outputs on a Cortex-M target are the lowered graph run
in Python (aot/cortex_m.py): ExecuTorch's `cortex_m::quantized_conv2d`
reference widens int8 to int32 and calls `F.conv2d` on it. PyTorch 2.x has
no integer kernel for a dilated convolution ("slow_conv_dilated<>" not
implemented for 'Int'), so every dilated int8 convolution failed to lower
(ExecuTorch's own dialect test xfails `conv2d_dilation` with that message).

`exact_integer_conv2d` gives that reference an `F` whose conv2d, for an
integer dilated call only, convolves in float64 and converts back. That is
exact: the operands are int8 widened with a zero point (|x| <= 255,
|w| <= 128) and int32 biases, so every partial sum is an integer below
2**53, whatever order the float kernel adds in. Every other call goes to
PyTorch's own conv2d unchanged. Drop it once torch runs integer dilated
convolutions (the canary in integer_dilated_conv_test.py fails then).
"""

from __future__ import annotations

import contextlib
import types
from typing import Any, Iterator

import torch
import torch.nn.functional as F


def _dilated(dilation: Any) -> bool:
    values = dilation if isinstance(dilation, (tuple, list)) else (dilation,)
    return any(int(d) != 1 for d in values)


def _conv2d(input: torch.Tensor, weight: torch.Tensor, bias: Any = None, *args: Any, **kwargs: Any) -> torch.Tensor:
    dilation = kwargs.get("dilation", args[2] if len(args) > 2 else 1)
    if input.dtype.is_floating_point or not _dilated(dilation):
        return F.conv2d(input, weight, bias, *args, **kwargs)
    wide_bias = None if bias is None else bias.to(torch.float64)
    out = F.conv2d(input.to(torch.float64), weight.to(torch.float64), wide_bias, *args, **kwargs)
    return out.round().to(input.dtype)


class _Functional(types.ModuleType):
    """torch.nn.functional with conv2d replaced."""

    def __getattr__(self, name: str) -> Any:
        return getattr(F, name)


@contextlib.contextmanager
def exact_integer_conv2d() -> Iterator[None]:
    """While active, ExecuTorch's cortex_m Python operators run integer
    dilated convolutions exactly (module docstring)."""
    from executorch.backends.cortex_m.ops import operators

    functional = _Functional("exact_integer_functional")
    functional.conv2d = _conv2d  # type: ignore[attr-defined]
    saved = operators.F
    operators.F = functional
    try:
        yield
    finally:
        operators.F = saved
