"""Writer and reader of the SDK's reference-tensor file (schema/tensor_file.md).

A `.tensors` file holds named-by-position tensors: the input a model is run with
and the output it must produce. The C++ runtime reads it in place, so every
record is 8-byte aligned and sizes are explicit.
"""

from __future__ import annotations

import dataclasses
import os
import struct
import tempfile
from typing import Iterable, Sequence

import numpy as np

from ethosu_sdk.errors import SdkError

MAGIC = b"ESDKTEN2"
# Version 1 (no per-record tolerance) is still read: its records hold one step.
MAGIC_V1 = b"ESDKTEN1"
MAX_RANK = 8
# An expected output may differ from its record by this many quantization
# steps at most (the comparison's default); more is a damaged file.
DEFAULT_TOLERANCE_STEPS = 1
# The widest allowance the AOT step writes is a 32-bit TABLE output's, 2^20
# (tosa_tables.table_tolerance_steps); 2^24 leaves room and still refuses garbage.
MAX_TOLERANCE_STEPS = 1 << 24
_FILE_HEADER = struct.Struct("<8sII")  # magic, count, reserved
_RECORD_HEADER_V1 = struct.Struct("<II8IfiQ")  # type, rank, sizes[8], scale, zp, nbytes
_RECORD_HEADER = struct.Struct("<II8IfiQII")  # ... then tolerance in steps, reserved
assert _RECORD_HEADER_V1.size == 56 and _RECORD_HEADER.size == 64

# ExecuTorch ScalarType numbering <-> numpy dtypes (little-endian storage).
SCALAR_TYPE_TO_DTYPE: dict[int, np.dtype] = {
    0: np.dtype("<u1"),
    1: np.dtype("<i1"),
    2: np.dtype("<i2"),
    3: np.dtype("<i4"),
    4: np.dtype("<i8"),
    6: np.dtype("<f4"),
    7: np.dtype("<f8"),
    11: np.dtype("?"),
}
_DTYPE_TO_SCALAR_TYPE = {dt.newbyteorder("="): st for st, dt in SCALAR_TYPE_TO_DTYPE.items()}


class TensorFileError(SdkError, ValueError):
    """A `.tensors` file is malformed or a tensor cannot be stored in one."""


@dataclasses.dataclass(frozen=True)
class StoredTensor:
    """One tensor of a `.tensors` file.

    `scale`/`zero_point` describe the quantization of the values the tensor
    holds (int8 data) or represents (a float tensor that a quantized graph
    consumes); scale 0 means none. `tolerance_steps`: how many of those
    steps an output may differ from this expected tensor (more than one only
    where the lowering approximates by definition: ethosu_sdk/tosa_tables.py).
    """

    data: np.ndarray
    scale: float = 0.0
    zero_point: int = 0
    tolerance_steps: int = DEFAULT_TOLERANCE_STEPS

    @property
    def scalar_type(self) -> int:
        return scalar_type_of(self.data.dtype)


def scalar_type_of(dtype: np.dtype) -> int:
    """ExecuTorch ScalarType code of a numpy dtype; raises if unsupported."""
    key = np.dtype(dtype).newbyteorder("=")
    if key not in _DTYPE_TO_SCALAR_TYPE:
        raise TensorFileError(f"dtype {dtype} has no tensor-file scalar type")
    return _DTYPE_TO_SCALAR_TYPE[key]


def _as_stored(item: StoredTensor | np.ndarray) -> StoredTensor:
    if isinstance(item, StoredTensor):
        return item
    return StoredTensor(np.asarray(item))


def encode(tensors: Iterable[StoredTensor | np.ndarray]) -> bytes:
    """Serialises tensors to the bytes of a `.tensors` file."""
    items = [_as_stored(t) for t in tensors]
    parts = [_FILE_HEADER.pack(MAGIC, len(items), 0)]
    for index, item in enumerate(items):
        data = np.asarray(item.data)
        if not data.flags.c_contiguous:  # (ascontiguousarray would make rank 0 rank 1)
            data = data.copy(order="C")
        if data.ndim > MAX_RANK:
            raise TensorFileError(f"tensor {index}: rank {data.ndim} > {MAX_RANK}")
        scalar_type = scalar_type_of(data.dtype)
        if item.scale == 0.0 and item.zero_point != 0:
            raise TensorFileError(f"tensor {index}: zero point without a scale")
        _check_tolerance(index, item.tolerance_steps)
        sizes = list(data.shape) + [0] * (MAX_RANK - data.ndim)
        payload = data.astype(SCALAR_TYPE_TO_DTYPE[scalar_type], copy=False).tobytes()
        parts.append(
            _RECORD_HEADER.pack(
                scalar_type,
                data.ndim,
                *sizes,
                float(item.scale),
                int(item.zero_point),
                len(payload),
                item.tolerance_steps,
                0,
            )
        )
        parts.append(payload)
        parts.append(b"\0" * (-len(payload) % 8))
    return b"".join(parts)


def decode(blob: bytes) -> list[StoredTensor]:
    """Parses the bytes of a `.tensors` file, checking every size and offset."""
    if len(blob) < _FILE_HEADER.size:
        raise TensorFileError(f"file of {len(blob)} bytes is shorter than the header")
    magic, count, reserved = _FILE_HEADER.unpack_from(blob, 0)
    if magic not in (MAGIC, MAGIC_V1):
        raise TensorFileError(f"bad magic {magic!r}, expected {MAGIC!r} (or version 1, {MAGIC_V1!r})")
    header = _RECORD_HEADER if magic == MAGIC else _RECORD_HEADER_V1
    if reserved != 0:
        raise TensorFileError(f"reserved header field is {reserved}, expected 0")
    offset = _FILE_HEADER.size
    result: list[StoredTensor] = []
    for index in range(count):
        if offset + header.size > len(blob):
            raise TensorFileError(f"tensor {index}: header runs past the end of the file")
        fields = header.unpack_from(blob, offset)
        scalar_type, rank = fields[0], fields[1]
        sizes, scale, zero_point, nbytes = fields[2:10], fields[10], fields[11], fields[12]
        tolerance, record_reserved = fields[13:15] if header is _RECORD_HEADER else (DEFAULT_TOLERANCE_STEPS, 0)
        _check_tolerance(index, tolerance)
        if record_reserved != 0:
            raise TensorFileError(f"tensor {index}: reserved record field is {record_reserved}, expected 0")
        if scalar_type not in SCALAR_TYPE_TO_DTYPE:
            raise TensorFileError(f"tensor {index}: unknown scalar type {scalar_type}")
        if rank > MAX_RANK:
            raise TensorFileError(f"tensor {index}: rank {rank} > {MAX_RANK}")
        if any(sizes[rank:]):
            raise TensorFileError(f"tensor {index}: sizes beyond rank {rank} are not 0")
        dtype = SCALAR_TYPE_TO_DTYPE[scalar_type]
        shape = tuple(sizes[:rank])
        elements = int(np.prod(shape, dtype=np.int64)) if rank else 1
        if nbytes != elements * dtype.itemsize:
            raise TensorFileError(f"tensor {index}: data size {nbytes} != {elements} elements x {dtype.itemsize} bytes")
        offset += header.size
        if offset + nbytes > len(blob):
            raise TensorFileError(f"tensor {index}: data runs past the end of the file")
        data = np.frombuffer(blob, dtype=dtype, count=elements, offset=offset).reshape(shape)
        result.append(StoredTensor(data.copy(), scale, zero_point, tolerance))
        offset += nbytes + (-nbytes % 8)
    if offset != len(blob):
        raise TensorFileError(f"{len(blob) - offset} trailing bytes after {count} tensors")
    return result


def _check_tolerance(index: int, steps: int) -> None:
    if not DEFAULT_TOLERANCE_STEPS <= steps <= MAX_TOLERANCE_STEPS:
        raise TensorFileError(
            f"tensor {index}: tolerance of {steps} steps outside {DEFAULT_TOLERANCE_STEPS}..{MAX_TOLERANCE_STEPS}"
        )


def write_tensor_file(path: str | os.PathLike[str], tensors: Sequence[StoredTensor | np.ndarray]) -> None:
    """Writes a `.tensors` file atomically (temporary file, then rename)."""
    blob = encode(tensors)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".tensors")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_tensor_file(path: str | os.PathLike[str]) -> list[StoredTensor]:
    """Reads and validates a `.tensors` file."""
    with open(path, "rb") as f:
        return decode(f.read())
