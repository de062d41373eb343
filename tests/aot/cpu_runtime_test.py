"""The CPU-only programs, run by ExecuTorch's own host runtime, reproduce the
references they ship with: what the C++ runtime must match too."""

import os

import executorch.kernels.quantized  # noqa: F401  registers the quantized_decomposed kernels
import numpy as np
import pytest
import torch
from executorch.runtime import Runtime

from ethosu_sdk.tensors import read_tensor_file

# The zoo models this run covers (BUILD.bazel: the everyday tier's, or the
# full tier's MobileNetV2).
ZOO = os.environ.get("AOT_ZOO", "mobilenet_v2,kws_dscnn,resnet_blocks,mlp_softmax,transformer_block").split(",")


def run(base):
    method = Runtime.get().load_program(base + ".pte").load_method("forward")
    inputs = read_tensor_file(base + ".input.tensors")
    (expected,) = read_tensor_file(base + ".expected.tensors")
    (output,) = method.execute([torch.from_numpy(t.data) for t in inputs])
    return output.numpy(), expected


@pytest.mark.parametrize("model", ZOO)
def test_float_program_matches_the_float_model(model):
    output, expected = run(f"tests/aot/{model}_cpu_fp32")
    assert expected.scale == 0.0
    np.testing.assert_allclose(output, expected.data, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("model", ZOO)
def test_quantized_program_matches_the_quantized_graph(model):
    output, expected = run(f"tests/aot/{model}_cpu_int8")
    assert expected.scale > 0
    steps = np.abs(output - expected.data) / expected.scale
    exact = float(np.mean(steps < 0.5))
    print(f"{model}: {exact:.2%} exact, max {steps.max():.2f} step(s)")
    # Float operators between quantize/dequantize may sum in another order
    # than PyTorch's and so land one step away, never more.
    assert steps.max() <= 1.0 + 1e-3
