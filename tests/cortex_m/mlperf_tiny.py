"""The four MLPerf Tiny reference architectures as ExecuTorch ships them
(executorch.examples.models.mlperf_tiny, imported from the installed wheel),
each a `function() -> (nn.Module, example inputs)` for `ethosu_model`.

The wheel's model classes draw their example inputs from torch's global
generator; each function seeds it so the reference files are the same on
every build. Weights are the classes' own initialization (no trained
checkpoint ships with the wheel): the test is the lowering and the kernels
against PyTorch's quantized graph, not the accuracy of the task.
"""

from __future__ import annotations

import torch
from executorch.examples.models.mlperf_tiny import (
    DeepAutoEncoderModel,
    DSCNNKWSModel,
    MobileNetV1025Model,
    ResNet8Model,
)
from executorch.examples.models.model_base import EagerModelBase

SEED = 46


def _build(model: EagerModelBase) -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(SEED)
    module = model.get_eager_model()
    return module, tuple(model.get_example_inputs())


def ds_cnn_kws() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """Keyword spotting: DS-CNN on (1, 1, 49, 10) MFCC frames, 12 classes."""
    return _build(DSCNNKWSModel())


def mobilenet_v1_025_vww() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """Visual wake words: MobileNetV1 width 0.25 on (1, 3, 96, 96), 2 classes."""
    return _build(MobileNetV1025Model())


def resnet8_ic() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """Image classification: ResNet-8 on (1, 3, 32, 32) CIFAR-10 images."""
    return _build(ResNet8Model())


def deep_autoencoder_ad() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """Anomaly detection: a dense autoencoder on a (1, 640) 2-D feature vector."""
    return _build(DeepAutoEncoderModel())
