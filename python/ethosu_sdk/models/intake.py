"""Models brought as files: a Python file in ExecuTorch's convention, or a
`torch.export`ed program.

- `path/to/model.py` defines `ModelUnderTest` (an `nn.Module` instance) and
  `ModelInputs` (a tuple of example inputs), as ExecuTorch's
  `aot_arm_compiler.py --model_name=FILE.py` expects. The file runs with
  torch's global RNG seeded, so weights it initialises randomly are the same
  on every build, and with its own directory first on `sys.path`, so it can
  import the files beside it.
- `path/to/program.pt2` is a float program saved with `torch.export.save`
  (with its example inputs, which `torch.export` keeps): it is quantized and
  lowered here like any other model.

Example inputs may hold values besides tensors (ints, floats, None, lists,
as ExecuTorch's own operator tests pass them): `bake_constants` makes them
constants of the model, as `torch.export` does, and the tensors its inputs.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from typing import Any

import torch
from torch import nn
from torch.utils import _pytree as pytree

from ethosu_sdk.errors import SdkError

MODEL_FILE_SUFFIXES = (".py", ".pt2")


class ModelFileError(SdkError, ValueError):
    """A model file that cannot be read or does not follow its convention."""


def is_model_file(name: str) -> bool:
    return name.endswith(MODEL_FILE_SUFFIXES)


def describe(value: object) -> str:
    """ "tuple of (Linear, str)": what model code returned, in one line."""
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__} of ({', '.join(type(v).__name__ for v in value)})"
    return f"a {type(value).__name__}"


def has_tensor(inputs: tuple[Any, ...]) -> bool:
    """Whether any example input (or anything nested in one) is a tensor."""
    leaves, _ = pytree.tree_flatten(inputs)
    return any(isinstance(leaf, torch.Tensor) for leaf in leaves)


def _inputs_tuple(value: Any, where: str) -> tuple[Any, ...]:
    inputs = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if not inputs or not has_tensor(inputs):
        raise ModelFileError(f"{where} is {describe(value)}; it must be a tuple of example input tensors")
    return inputs


class _WithConstants(nn.Module):
    """A model whose example inputs hold values besides tensors (ints,
    floats, None, lists, ...): those are baked in as constants, as
    torch.export specialises them, and the tensors alone are its inputs."""

    def __init__(self, inner: nn.Module, inputs: tuple[Any, ...]) -> None:
        super().__init__()
        self.inner = inner
        leaves, self._spec = pytree.tree_flatten(inputs)
        self._tensor_at = [i for i, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]
        self._leaves = [None if isinstance(leaf, torch.Tensor) else leaf for leaf in leaves]

    def forward(self, *tensors: torch.Tensor) -> Any:
        leaves = list(self._leaves)
        for position, tensor in zip(self._tensor_at, tensors):
            leaves[position] = tensor
        return self.inner(*pytree.tree_unflatten(leaves, self._spec))


def bake_constants(module: nn.Module, inputs: tuple[Any, ...]) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """(module, inputs) with tensors only: unchanged when every input is a
    tensor; otherwise the non-tensor values become constants of a wrapper
    and the tensors (flattened out of lists and tuples) its inputs."""
    if all(isinstance(x, torch.Tensor) for x in inputs):
        return module, tuple(inputs)
    leaves, _ = pytree.tree_flatten(inputs)
    wrapper = _WithConstants(module, inputs)
    wrapper.training = module.training  # an exported module refuses train()
    return wrapper, tuple(leaf for leaf in leaves if isinstance(leaf, torch.Tensor))


def _check_readable(path: str) -> None:
    if not os.path.isfile(path):
        raise ModelFileError(f"model file {path!r} does not exist")


def load_python_file(path: str, seed: int) -> tuple[nn.Module, tuple[Any, ...]]:
    """Runs a model file and returns its (ModelUnderTest, ModelInputs).

    Exceptions raised by the file's own code propagate unchanged: the caller
    reports them as the model's failure."""
    _check_readable(path)
    # A name of its own per file: two model files called model.py do not
    # share a module, and the worker drops it after the request (its
    # __file__ lies outside the Python installation).
    digest = hashlib.sha256(os.path.abspath(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(f"_ethosu_model_file_{digest}", path)
    if spec is None or spec.loader is None:
        raise ModelFileError(f"cannot load {path!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and pickling look modules up
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            spec.loader.exec_module(module)
    finally:
        sys.path.remove(os.path.dirname(os.path.abspath(path)))
    usage = "define ModelUnderTest (an nn.Module instance) and ModelInputs (a tuple of example input tensors)"
    missing = [name for name in ("ModelUnderTest", "ModelInputs") if not hasattr(module, name)]
    if missing:
        raise ModelFileError(f"{path} has no {' or '.join(missing)}: a model file must {usage}")
    model = module.ModelUnderTest
    if isinstance(model, type) and issubclass(model, nn.Module):
        raise ModelFileError(
            f"{path}: ModelUnderTest is the class {model.__name__}, not an instance; "
            f"write ModelUnderTest = {model.__name__}(...)"
        )
    if not isinstance(model, nn.Module):
        raise ModelFileError(f"{path}: ModelUnderTest is {describe(model)}; a model file must {usage}")
    return model, _inputs_tuple(module.ModelInputs, f"{path}: ModelInputs")


def load_exported_program(path: str) -> tuple[nn.Module, tuple[Any, ...]]:
    """A `torch.export.save`d program as a module and its example inputs."""
    _check_readable(path)
    try:
        program = torch.export.load(path)
    except Exception as e:  # torch raises zipfile, pickle and runtime errors alike
        detail = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ModelFileError(
            f"{path} is not a torch.export program ({detail}): save one with "
            "torch.export.save(torch.export.export(model, inputs), PATH)"
        ) from e
    examples = program.example_inputs
    if examples is None:
        raise ModelFileError(
            f"{path} carries no example inputs: export it with example inputs "
            "(torch.export.export(model, inputs)) and save that program"
        )
    args, kwargs = examples
    if kwargs:
        raise ModelFileError(
            f"{path} takes keyword inputs ({', '.join(sorted(kwargs))}); only positional tensor inputs are supported"
        )
    inputs = _inputs_tuple(args, f"{path}: the saved example inputs")
    # A float program: quantization re-exports the module it describes.
    return program.module(), inputs
