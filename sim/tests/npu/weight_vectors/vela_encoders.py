"""Vela 5.1.0's own weight encoders, as the weight-codec tests' reference.

- `swd_python`: `ethosu.mlw_codec.encode`, the mlw (SWD) encoder Vela's
  Python compiler uses for Ethos-U55/U65.
- `u55_reorder_encode`: `ethosu.mlw_codec.reorder_encode`, that encoder
  after Vela's U55/U65 weight ordering of an OHWI kernel.
- `swd_regor`, `fwd_regor`: the MLW encoder inside Vela's C++ compiler
  (regor), SWD and U85 FWD syntax, through the C functions `mle_*` that
  ethosu/regor.so exports (declared in regor's public mlw_encode.h).
"""

from __future__ import annotations

import ctypes
import importlib.util
from typing import List, Sequence, Tuple

import numpy as np
from ethosu import mlw_codec

# mlw_encode.h: the encoder's bitstream syntaxes and "no flags".
_SYNTAX_SWD = 0
_SYNTAX_FWD = 2
_FLAGS_NONE = 0


class _EncodeResult(ctypes.Structure):
    """mlw_encode.h's ml_encode_result_t."""

    _fields_ = [
        ("encoded_data", ctypes.POINTER(ctypes.c_uint8)),
        ("encoded_length", ctypes.c_int32),
        ("source_length", ctypes.c_int32),
        ("section_info", ctypes.c_void_p),
        ("section_count", ctypes.c_int32),
    ]


def _regor() -> ctypes.CDLL:
    spec = importlib.util.find_spec("ethosu.regor")
    if spec is None or spec.origin is None:
        raise RuntimeError("ethos-u-vela has no ethosu.regor module")
    lib = ctypes.CDLL(spec.origin)
    lib.mle_create_context.restype = ctypes.c_void_p
    lib.mle_create_context.argtypes = [ctypes.c_int]
    lib.mle_encode.restype = ctypes.c_int
    lib.mle_encode.argtypes = [
        ctypes.c_void_p,
        ctypes.POINTER(_EncodeResult),
        ctypes.POINTER(ctypes.c_int16),
        ctypes.c_int,
        ctypes.c_uint,
    ]
    lib.mle_free.argtypes = [ctypes.POINTER(_EncodeResult)]
    lib.mle_destroy_context.argtypes = [ctypes.c_void_p]
    return lib


def _regor_encode(syntax: int, weights: Sequence[int]) -> bytes:
    lib = _regor()
    context = lib.mle_create_context(syntax)
    if not context:
        raise RuntimeError(f"regor: no encoder for syntax {syntax}")
    result = _EncodeResult()
    values = (ctypes.c_int16 * len(weights))(*weights)
    try:
        length = lib.mle_encode(context, ctypes.byref(result), values, len(weights), _FLAGS_NONE)
        if length <= 0 or result.source_length != len(weights):
            raise RuntimeError(f"regor: encoded {result.source_length} of {len(weights)} weights")
        return bytes(result.encoded_data[: result.encoded_length])
    finally:
        lib.mle_free(ctypes.byref(result))
        lib.mle_destroy_context(context)


def swd_python(weights: Sequence[int]) -> bytes:
    return bytes(mlw_codec.encode(list(weights)))


def swd_regor(weights: Sequence[int]) -> bytes:
    return _regor_encode(_SYNTAX_SWD, weights)


def fwd_regor(weights: Sequence[int]) -> bytes:
    return _regor_encode(_SYNTAX_FWD, weights)


def swd_decode(stream: bytes) -> List[int]:
    """Vela's own mlw decoder (to check the bindings above, not our decoder)."""
    return list(mlw_codec.decode(bytearray(stream)))


def u55_reorder_encode(
    ohwi: np.ndarray,
    ofm_block_depth: int,
    depthwise: bool,
    part_kernel: bool,
    dilation: Tuple[int, int],
    ifm_ublock_depth: int,
    ofm_ublock_depth: int,
) -> bytes:
    """Vela's U55/U65 ordering and SWD encoding of one core's OHWI kernel,
    with the arguments Vela's weight_compressor passes (8-bit IFM; the
    sub-kernel limit 8x8 divided by the dilation)."""
    sub_kernel_max = 8
    ifm_bits = 8
    stream, _ = mlw_codec.reorder_encode(
        ifm_ublock_depth,
        ofm_ublock_depth,
        ohwi.astype(np.int16),
        ofm_block_depth,
        depthwise,
        part_kernel,
        ifm_bits,
        sub_kernel_max // dilation[1],
        sub_kernel_max // dilation[0],
    )
    return bytes(stream)
