"""Calibration samples: files (or a directory of them), or the example input.

Each file is one sample: as many tensors as the model has inputs, with the
example inputs' shapes (PyTorch's NCHW, whatever the input layout), used in
name order and as float32. Built-in readers take `.tensors` (the SDK's
format), `.npy` (one array: a model with one input) and `.npz` (one array
per input, in the archive's order). Any other file, such as an image, needs
a preprocessing function of the user's (`module:function` or
`FILE.py:function`): it is called with the file's path and returns the
model's inputs (a tensor, an array, or a tuple of them); with one given,
every calibration file goes through it.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Callable, Optional, Sequence

import numpy as np
import torch

from ethosu_sdk.aot import user_function
from ethosu_sdk.aot.errors import CalibrationError, first_line
from ethosu_sdk.tensors import TensorFileError, read_tensor_file

MAX_SAMPLES = 1000
ARRAY_SUFFIXES = (".tensors", ".npy", ".npz")

Preprocess = Callable[[str], Any]


@dataclasses.dataclass
class Calibration:
    samples: list[tuple[torch.Tensor, ...]]
    source: str  # for the summary: where the samples came from

    def as_summary(self) -> dict[str, object]:
        return {"samples": len(self.samples), "source": self.source}


def load_preprocess(reference: str) -> Preprocess:
    """The function named by `module:function` or `path/to/file.py:function`
    (user_function.py)."""
    return user_function.load(reference, "calibration preprocessing", CalibrationError)


def _arrays_of(path: str, preprocess: Optional[Preprocess]) -> list[Any]:
    """The file's input arrays, before any check against the model."""
    if preprocess is not None:
        try:
            value = preprocess(path)
        except Exception as e:  # the user's code
            raise CalibrationError(f"calibration preprocessing of {path} failed: {first_line(e)}") from e
        return list(value) if isinstance(value, (tuple, list)) else [value]
    try:
        if path.endswith(".tensors"):
            return [t.data for t in read_tensor_file(path)]
        if path.endswith(".npy"):
            return [np.load(path, allow_pickle=False)]
        if path.endswith(".npz"):
            with np.load(path, allow_pickle=False) as archive:
                return [archive[name] for name in archive.files]
    except (OSError, ValueError, TensorFileError) as e:
        raise CalibrationError(f"calibration file {path}: {e}") from e
    raise CalibrationError(
        f"calibration file {path}: not a .tensors, .npy or .npz file; for images or other "
        "data give a preprocessing function (calibration_preprocess = module:function) "
        "that turns a file into the model's inputs"
    )


def load_sample(
    path: str, example_inputs: tuple[torch.Tensor, ...], preprocess: Optional[Preprocess] = None
) -> tuple[torch.Tensor, ...]:
    """One sample from one file, checked against the example inputs."""
    arrays = _arrays_of(path, preprocess)
    if len(arrays) != len(example_inputs):
        raise CalibrationError(f"calibration file {path}: {len(arrays)} tensors, the model takes {len(example_inputs)}")
    sample = []
    for index, (value, example) in enumerate(zip(arrays, example_inputs)):
        try:
            array = value.detach().cpu().numpy() if isinstance(value, torch.Tensor) else np.asarray(value)
            tensor = torch.from_numpy(np.array(array, dtype=np.float32))
        except (TypeError, ValueError) as e:
            raise CalibrationError(f"calibration file {path}: tensor {index} is not numeric: {e}") from e
        if tuple(tensor.shape) != tuple(example.shape):
            raise CalibrationError(
                f"calibration file {path}: tensor {index} has shape {list(tensor.shape)}, "
                f"the model takes {list(example.shape)}"
            )
        sample.append(tensor)
    return tuple(sample)


def _directory_files(directory: str, take_all: bool) -> list[str]:
    try:
        names = sorted(n for n in os.listdir(directory) if not n.startswith("."))
    except OSError as e:
        raise CalibrationError(f"cannot read calibration directory {directory!r}: {e.strerror or e}") from e
    paths = [os.path.join(directory, n) for n in names]
    paths = [p for p in paths if os.path.isfile(p) and (take_all or p.endswith(ARRAY_SUFFIXES))]
    if not paths:
        kinds = "files" if take_all else ".tensors, .npy or .npz files"
        raise CalibrationError(f"calibration directory {directory!r} holds no {kinds}")
    return paths[:MAX_SAMPLES]


def calibration_samples(
    directory: Optional[str],
    files: Sequence[str],
    example_inputs: tuple[torch.Tensor, ...],
    preprocess: Optional[str] = None,
) -> Calibration:
    """Samples from `directory` and `files` (through `preprocess` when given),
    or the example input alone when neither is given."""
    function = load_preprocess(preprocess) if preprocess else None
    paths = _directory_files(directory, function is not None) if directory is not None else []
    paths += list(files)
    samples = [load_sample(p, example_inputs, function) for p in paths]
    if not samples:
        return Calibration([example_inputs], "the example input")
    where = []
    if directory is not None:
        where.append(f"directory {os.path.basename(os.path.normpath(directory))}")
    if files:
        where.append(f"{len(files)} file(s)")
    through = f", through {preprocess}" if preprocess else ""
    return Calibration(samples, " and ".join(where) + through)
