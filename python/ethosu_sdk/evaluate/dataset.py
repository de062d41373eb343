"""An evaluation directory: labelled samples, one `.npz` file each.

Format (`aot_compile --eval_data=DIR`, `ethosu_model(eval_data = ...)`):
every `*.npz` file of DIR, in name order, is one sample. Its array `label`
is the class index (an integer scalar, 0 <= label < the model's number of
outputs); every other array is one model input, in the archive's order,
with the example inputs' shapes (PyTorch's NCHW), read as float32.
examples/digits/eval/ is such a directory (written by examples/digits/train.py).
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import torch

from ethosu_sdk.errors import SdkError

LABEL_KEY = "label"
MAX_SAMPLES = 10000  # an evaluation runs every sample through the NPU model: keep it bounded


class EvaluationError(SdkError):
    """The evaluation data cannot be used as given."""


@dataclasses.dataclass(frozen=True)
class Sample:
    name: str  # the file's name, for messages
    inputs: tuple[torch.Tensor, ...]
    label: int


def _sample(path: str, example_inputs: tuple[torch.Tensor, ...], classes: int) -> Sample:
    name = os.path.basename(path)
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in archive.files}
    except (OSError, ValueError) as e:
        raise EvaluationError(f"evaluation file {path}: cannot read it as .npz: {e}") from e
    if LABEL_KEY not in arrays:
        raise EvaluationError(
            f"evaluation file {path}: no '{LABEL_KEY}' array; each .npz needs the sample's "
            f"class index as '{LABEL_KEY}' beside its input arrays"
        )
    label_array = arrays.pop(LABEL_KEY)
    if label_array.size != 1 or not np.issubdtype(label_array.dtype, np.integer):
        raise EvaluationError(
            f"evaluation file {path}: '{LABEL_KEY}' must be one integer class index, "
            f"got {label_array.dtype} of shape {list(label_array.shape)}"
        )
    label = int(label_array.reshape(()))
    if not 0 <= label < classes:
        raise EvaluationError(
            f"evaluation file {path}: label {label} is out of range; the model has {classes} classes (0..{classes - 1})"
        )
    if len(arrays) != len(example_inputs):
        raise EvaluationError(
            f"evaluation file {path}: {len(arrays)} input array(s) besides '{LABEL_KEY}', "
            f"the model takes {len(example_inputs)}"
        )
    inputs = []
    for index, (array, example) in enumerate(zip(arrays.values(), example_inputs)):
        if tuple(array.shape) != tuple(example.shape):
            raise EvaluationError(
                f"evaluation file {path}: input {index} has shape {list(array.shape)}, "
                f"the model takes {list(example.shape)}"
            )
        if not np.issubdtype(array.dtype, np.number):
            raise EvaluationError(f"evaluation file {path}: input {index} is not numeric ({array.dtype})")
        inputs.append(torch.from_numpy(np.array(array, dtype=np.float32)))
    return Sample(name, tuple(inputs), label)


def load(directory: str, example_inputs: tuple[torch.Tensor, ...], classes: int) -> list[Sample]:
    """Every sample of `directory`, checked against the model's inputs and its
    number of classes (the element count of its first output)."""
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".npz") and not n.startswith("."))
    except OSError as e:
        raise EvaluationError(f"cannot read evaluation directory {directory!r}: {e.strerror or e}") from e
    if not names:
        raise EvaluationError(
            f"evaluation directory {directory!r} holds no .npz files; give one file per "
            f"sample with its inputs and a '{LABEL_KEY}' array"
        )
    if len(names) > MAX_SAMPLES:
        raise EvaluationError(
            f"evaluation directory {directory!r} holds {len(names)} samples, more than "
            f"{MAX_SAMPLES}; evaluate on a subset"
        )
    return [_sample(os.path.join(directory, n), example_inputs, classes) for n in names]
