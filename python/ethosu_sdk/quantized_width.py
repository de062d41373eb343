"""The width of a quantized tensor, read from its quantize node's clamp range.

PyTorch's quantize ops carry (qmin, qmax) but no dtype the lowering keeps:
an int16 activation is quantized with an int32 container and a
[-32768, 32767] range, an int32 one with the whole int32 range. The range
is therefore what says 8, 16 or 32 bits. The AOT step (which quantize nodes
are wider than int8) and the build's lowering check (how much drift a
tensor may carry) both ask, and must agree.
"""

from __future__ import annotations

from typing import Optional

_INT8_MIN, _UINT8_MAX = -(1 << 7), (1 << 8) - 1
_INT16_MIN, _UINT16_MAX = -(1 << 15), (1 << 16) - 1


def clamp_range_bits(qmin: Optional[int], qmax: Optional[int]) -> int:
    """8, 16 or 32: the narrowest width whose signed or unsigned range holds
    [qmin, qmax]. A missing bound does not widen."""
    if (qmin is not None and qmin < _INT16_MIN) or (qmax is not None and qmax > _UINT16_MAX):
        return 32
    if (qmin is not None and qmin < _INT8_MIN) or (qmax is not None and qmax > _UINT8_MAX):
        return 16
    return 8
