"""Calibration samples: a directory of `.tensors` files, or the example input.

Each file is one sample: as many tensors as the model has inputs, with the
example inputs' shapes, in float32. Files are used in name order.
"""

from __future__ import annotations

import os
from typing import Optional, Sequence

import numpy as np
import torch

from ethosu_sdk.aot.errors import CalibrationError
from ethosu_sdk.tensors import TensorFileError, read_tensor_file

MAX_SAMPLES = 1000


def load_calibration_dir(directory: str, example_inputs: tuple[torch.Tensor, ...]) -> list[tuple[torch.Tensor, ...]]:
    """Loads every `*.tensors` file of `directory`, checked against the inputs."""
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".tensors"))
    except OSError as e:
        raise CalibrationError(f"cannot read calibration directory {directory!r}: {e.strerror or e}") from e
    if not names:
        raise CalibrationError(f"calibration directory {directory!r} holds no .tensors files")
    return load_calibration_files([os.path.join(directory, n) for n in names[:MAX_SAMPLES]], example_inputs)


def load_calibration_files(paths: Sequence[str], example_inputs: tuple[torch.Tensor, ...]) -> list[tuple[torch.Tensor, ...]]:
    """Loads `.tensors` files, one sample each, checked against the inputs."""
    samples = []
    for path in paths:
        try:
            stored = read_tensor_file(path)
        except (OSError, TensorFileError) as e:
            raise CalibrationError(f"calibration file {path}: {e}") from e
        if len(stored) != len(example_inputs):
            raise CalibrationError(f"calibration file {path}: {len(stored)} tensors, the model takes {len(example_inputs)}")
        sample = []
        for index, (tensor, example) in enumerate(zip(stored, example_inputs)):
            if tuple(tensor.data.shape) != tuple(example.shape):
                raise CalibrationError(
                    f"calibration file {path}: tensor {index} has shape {list(tensor.data.shape)}, "
                    f"the model takes {list(example.shape)}"
                )
            sample.append(torch.from_numpy(np.asarray(tensor.data, dtype=np.float32).copy()))
        samples.append(tuple(sample))
    return samples


def calibration_samples(
    directory: Optional[str], files: Sequence[str], example_inputs: tuple[torch.Tensor, ...]
) -> list[tuple[torch.Tensor, ...]]:
    """Samples from `directory` and `files`, or the example input alone when
    neither is given."""
    samples = load_calibration_dir(directory, example_inputs) if directory is not None else []
    samples += load_calibration_files(files, example_inputs)
    return samples or [example_inputs]
