"""The .tensors writer/reader against schema/tensor_file.md."""

import struct

import numpy as np
import pytest

from ethosu_sdk.tensors import StoredTensor, TensorFileError, decode, encode, read_tensor_file, write_tensor_file
from ethosu_sdk.tensors.tensor_file import MAX_TOLERANCE_STEPS


def test_layout_matches_the_spec_byte_for_byte():
    data = np.arange(6, dtype=np.int8).reshape(2, 3)
    blob = encode([StoredTensor(data, 0.5, -3, tolerance_steps=16), np.array([1.5], dtype=np.float32)])
    assert blob[:8] == b"ESDKTEN2"
    assert struct.unpack_from("<II", blob, 8) == (2, 0)
    # First record at 16: int8 (1), rank 2, sizes 2,3 then six zeros.
    assert struct.unpack_from("<II8I", blob, 16) == (1, 2, 2, 3, 0, 0, 0, 0, 0, 0)
    assert struct.unpack_from("<fiQII", blob, 16 + 40) == (0.5, -3, 6, 16, 0)
    assert blob[16 + 64 : 16 + 70] == bytes(range(6))
    assert blob[16 + 70 : 16 + 72] == b"\0\0"  # padding to 8
    second = 16 + 72
    assert struct.unpack_from("<II", blob, second) == (6, 1)
    assert struct.unpack_from("<fiQII", blob, second + 40) == (0.0, 0, 4, 1, 0)  # the default: one step
    assert struct.unpack_from("<f", blob, second + 64) == (1.5,)
    assert len(blob) == second + 64 + 8
    assert [t.tolerance_steps for t in decode(blob)] == [16, 1]


def _version_1(data: np.ndarray, scale: float, zero_point: int) -> bytes:
    """A version-1 file (56-byte record headers, no tolerance), as the
    schema's history describes it."""
    sizes = list(data.shape) + [0] * (8 - data.ndim)
    payload = data.tobytes()
    header = struct.pack("<8sII", b"ESDKTEN1", 1, 0)
    record = struct.pack("<II8IfiQ", 1, data.ndim, *sizes, scale, zero_point, len(payload))
    return header + record + payload + b"\0" * (-len(payload) % 8)


def test_version_1_files_are_read_with_one_step():
    data = np.arange(-4, 4, dtype=np.int8).reshape(2, 4)
    (back,) = decode(_version_1(data, 0.25, 1))
    np.testing.assert_array_equal(back.data, data)
    assert (back.scale, back.zero_point, back.tolerance_steps) == (0.25, 1, 1)


@pytest.mark.parametrize("steps", [0, MAX_TOLERANCE_STEPS + 1])
def test_a_tolerance_outside_its_range_is_refused(steps):
    with pytest.raises(TensorFileError, match="tolerance"):
        encode([StoredTensor(np.zeros(2, np.int8), 0.5, 0, tolerance_steps=steps)])
    blob = bytearray(encode([StoredTensor(np.zeros(2, np.int8), 0.5, 0)]))
    struct.pack_into("<I", blob, 16 + 56, steps)
    with pytest.raises(TensorFileError, match="tolerance"):
        decode(bytes(blob))


@pytest.mark.parametrize("dtype", ["u1", "i1", "i2", "i4", "i8", "f4", "f8", "?"])
def test_round_trip_every_scalar_type(dtype, tmp_path):
    rng = np.random.default_rng(1)
    data = (rng.standard_normal((3, 1, 5)) * 50).astype(dtype)
    path = tmp_path / "x.tensors"
    write_tensor_file(path, [StoredTensor(data, 0.25, 4), data[0, 0]])
    back = read_tensor_file(path)
    assert len(back) == 2
    np.testing.assert_array_equal(back[0].data, data)
    assert back[0].data.dtype == np.dtype(dtype)
    assert (back[0].scale, back[0].zero_point) == (0.25, 4)
    np.testing.assert_array_equal(back[1].data, data[0, 0])
    assert len(path.read_bytes()) % 8 == 0


def test_scalar_and_empty_tensors():
    back = decode(encode([np.float32(2.0).reshape(()), np.zeros((0, 4), np.int16)]))
    assert back[0].data.shape == () and back[0].data == 2.0
    assert back[1].data.shape == (0, 4)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda b: b"XSDKTEN2" + b[8:], "magic"),
        (lambda b: b[: 16 + 60] + struct.pack("<I", 1) + b[16 + 64 :], "reserved record field"),
        (lambda b: b[:20], "past the end"),
        (lambda b: b[:-8], "past the end"),
        (lambda b: b + b"\0" * 8, "trailing"),
        (lambda b: b[:16] + struct.pack("<I", 99) + b[20:], "scalar type"),
        (lambda b: b[:20] + struct.pack("<I", 9) + b[24:], "rank"),
        (lambda b: b[: 16 + 48] + struct.pack("<Q", 7) + b[16 + 56 :], "data size"),
        (lambda b: b[:8] + struct.pack("<I", 2) + b[12:], "past the end"),
    ],
)
def test_malformed_files_are_rejected(mutate, message):
    blob = encode([np.ones((2, 2), np.float32)])
    with pytest.raises(TensorFileError, match=message):
        decode(mutate(blob))


def test_unsupported_dtype_and_rank():
    with pytest.raises(TensorFileError):
        encode([np.zeros(2, np.complex64)])
    with pytest.raises(TensorFileError):
        encode([np.zeros((1,) * 9, np.float32)])


def test_failed_write_leaves_no_file(tmp_path):
    path = tmp_path / "bad.tensors"
    with pytest.raises(TensorFileError):
        write_tensor_file(path, [np.zeros(2, np.complex64)])
    assert list(tmp_path.iterdir()) == []
