"""clamp_range_bits against the ranges PyTorch's quantizers emit."""

from __future__ import annotations

import pytest
import torch

from ethosu_sdk.quantized_width import clamp_range_bits


@pytest.mark.parametrize(
    ("dtype", "bits"),
    [(torch.int8, 8), (torch.uint8, 8), (torch.int16, 16), (torch.uint16, 16), (torch.int32, 32)],
)
def test_a_dtype_s_whole_range_is_its_width(dtype: torch.dtype, bits: int) -> None:
    info = torch.iinfo(dtype)
    assert clamp_range_bits(info.min, info.max) == bits


def test_a_narrowed_range_keeps_its_container_s_width_only_when_it_needs_it() -> None:
    # A 7-bit range in int8 and a 12-bit range in int16 (restricted ranges
    # that quantizers use for weights) are read as 8 and 16 bits.
    assert clamp_range_bits(-63, 63) == 8
    assert clamp_range_bits(-2048, 2047) == 16


def test_a_missing_bound_does_not_widen() -> None:
    assert clamp_range_bits(None, None) == 8
    assert clamp_range_bits(None, 40000) == 16
    assert clamp_range_bits(-40000, None) == 32
