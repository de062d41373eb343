"""Reference-tensor files (`.tensors`, schema/tensor_file.md)."""

from ethosu_sdk.tensors.tensor_file import (
    MAGIC,
    SCALAR_TYPE_TO_DTYPE,
    StoredTensor,
    TensorFileError,
    decode,
    encode,
    read_tensor_file,
    scalar_type_of,
    write_tensor_file,
)

__all__ = [
    "MAGIC",
    "SCALAR_TYPE_TO_DTYPE",
    "StoredTensor",
    "TensorFileError",
    "decode",
    "encode",
    "read_tensor_file",
    "scalar_type_of",
    "write_tensor_file",
]
