"""Model zoo registry: name -> (model builder, example input shapes).

Everything is deterministic from a seed: weights, BatchNorm statistics and
the example input. A model can also be named by an import reference
`package.module:function` (a function returning `(nn.Module, tuple of example
input tensors)`), which is how a downstream py_library plugs its own model in,
or be a file (`model.py` in ExecuTorch's ModelUnderTest/ModelInputs
convention, or a `torch.export`ed `program.pt2`; see intake.py).
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Callable, Optional

import torch
from torch import nn

from ethosu_sdk.errors import SdkError
from ethosu_sdk.models import intake
from ethosu_sdk.models.attention import TransformerBlock
from ethosu_sdk.models.digits_cnn import DigitsCnn
from ethosu_sdk.models.kws_dscnn import KwsDsCnn
from ethosu_sdk.models.mlp import MlpSoftmax
from ethosu_sdk.models.mobilenet_v2 import MobileNetV2
from ethosu_sdk.models.resnet_blocks import ResidualNet


class UnknownModelError(SdkError, KeyError):
    """The model name is neither in the zoo nor an importable `module:function`
    nor a model file that follows its convention."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


@dataclasses.dataclass(frozen=True)
class ZooEntry:
    name: str
    description: str
    build: Callable[[], nn.Module]
    input_shapes: tuple[tuple[int, ...], ...]


@dataclasses.dataclass
class LoadedModel:
    """A model in eval mode with the example inputs it is exported with."""

    name: str
    module: nn.Module
    example_inputs: tuple[torch.Tensor, ...]


ZOO: dict[str, ZooEntry] = {
    e.name: e
    for e in [
        ZooEntry(
            "mobilenet_v2",
            "MobileNetV2 1.0 (torchvision layout), 224x224 RGB, 1000 classes",
            MobileNetV2,
            ((1, 3, 224, 224),),
        ),
        ZooEntry("kws_dscnn", "keyword spotting DS-CNN, 49x10 MFCC, 12 classes", KwsDsCnn, ((1, 1, 49, 10),)),
        ZooEntry(
            "resnet_blocks", "3 residual basic blocks with add, 32x32 RGB, 10 classes", ResidualNet, ((1, 3, 32, 32),)
        ),
        ZooEntry(
            "digits_cnn",
            "small CNN for 8x8 handwritten digits (scikit-learn's load_digits), 10 classes; "
            "trained weights: examples/digits/digits_cnn.pt",
            DigitsCnn,
            ((1, 1, 8, 8),),
        ),
        ZooEntry("mlp_softmax", "MLP 64-128-64-10 with softmax", MlpSoftmax, ((1, 64),)),
        ZooEntry(
            "transformer_block", "pre-norm transformer block, 16 tokens x 32, 4 heads", TransformerBlock, ((1, 16, 32),)
        ),
    ]
}


def model_names() -> list[str]:
    return sorted(ZOO)


def example_inputs(shapes: tuple[tuple[int, ...], ...], seed: int) -> tuple[torch.Tensor, ...]:
    """Standard-normal inputs drawn from a private generator seeded with `seed`."""
    generator = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(shape, generator=generator) for shape in shapes)


def _build_seeded(build: Callable[[], nn.Module], seed: int) -> nn.Module:
    # Module constructors initialise from the global RNG: seed it, and restore
    # the caller's RNG state afterwards.
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return build()


def _load_reference(reference: str) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    module_name, _, function_name = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UnknownModelError(f"cannot import model module {module_name!r}: {e}") from e
    function = getattr(module, function_name, None)
    if not callable(function):
        raise UnknownModelError(f"{module_name!r} has no callable {function_name!r}")
    result = function()
    usage = "it must return (nn.Module, tuple of example input tensors)"
    if not isinstance(result, tuple) or len(result) != 2 or not isinstance(result[0], nn.Module):
        raise UnknownModelError(f"{reference} returned {intake.describe(result)}; {usage}")
    model, inputs = result
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    if not inputs or not intake.has_tensor(inputs):
        raise UnknownModelError(f"{reference} returned example inputs {intake.describe(inputs)}; {usage}")
    return model, inputs


def _has_train_mode_nodes(module: torch.nn.Module) -> bool:
    """Dropout or batch-norm nodes in the graph or any nested graph (a
    cond's branches, a loop's body)."""
    return any(
        "dropout" in str(node.target) or "batch_norm" in str(node.target)
        for sub in module.modules()
        if isinstance(sub, torch.fx.GraphModule)
        for node in sub.graph.nodes
    )


def load_model(name: str, seed: int = 0, state_dict_path: Optional[str] = None) -> LoadedModel:
    """Builds a zoo model (or imports `module:function`) in eval mode.

    Args:
      name: a zoo name (see `model_names()`), `package.module:function`, or a
        model file (`.py` or `.pt2`, intake.py).
      seed: seeds the weights and the example input (of a `.py` file: torch's
        RNG while the file runs).
      state_dict_path: optional `torch.save`d state dict to load (strict).
    """
    exported = name.endswith(".pt2")
    if intake.is_model_file(name):
        try:
            if exported:
                module, inputs = intake.load_exported_program(name)
            else:
                module, inputs = intake.load_python_file(name, seed)
        except intake.ModelFileError as e:
            raise UnknownModelError(str(e)) from None
    elif ":" in name:
        module, inputs = _load_reference(name)
    elif name in ZOO:
        entry = ZOO[name]
        module = _build_seeded(entry.build, seed)
        inputs = example_inputs(entry.input_shapes, seed)
    else:
        raise UnknownModelError(
            f"unknown model {name!r}; zoo models: {', '.join(model_names())} "
            "(or give package.module:function, or a model file: FILE.py or FILE.pt2)"
        )
    if state_dict_path:
        state = torch.load(state_dict_path, map_location="cpu", weights_only=True)
        module.load_state_dict(state, strict=True)
    if exported:
        # An exported module refuses eval(): this switches its dropout and
        # batch-norm nodes instead. Only where there are any: it also lints
        # every nested graph, which fails on a torch.cond inside a cond's
        # branch ("references nonexistent attribute true_graph_0").
        from torchao.quantization.pt2e import move_exported_model_to_eval

        if _has_train_mode_nodes(module):
            move_exported_model_to_eval(module)
    else:
        module.eval()
    module.requires_grad_(False)
    module, inputs = intake.bake_constants(module, inputs)
    return LoadedModel(name=name, module=module, example_inputs=inputs)
