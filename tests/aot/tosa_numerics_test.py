"""TOSA-1.0+INT lowering of each zoo model, run by the TOSA reference model
(tosa-tools), against the PyTorch quantized graph (the converted PT2E module
whose output is in `<name>.expected.tensors`).

The delegate's input is the model input quantized by the CPU's
`quantize_per_tensor` (PyTorch's own op computes it here); its int8 output is
compared with the expected output in quantization steps.
"""

import os

import numpy as np
import pytest
import torch
import tosa_reference_model
from torch.ao.quantization.fx import _decomposed  # noqa: F401  registers quantized_decomposed ops

from ethosu_sdk.pte import delegate_payload, parse_pte
from ethosu_sdk.tensors import read_tensor_file

# The zoo models this run covers (BUILD.bazel: the everyday tier's, or the
# full tier's MobileNetV2).
ZOO = os.environ.get("AOT_ZOO", "mobilenet_v2,kws_dscnn,resnet_blocks,mlp_softmax,transformer_block").split(",")
MAX_STEPS = 1


def quantize(values: np.ndarray, scale: float, zero_point: int) -> np.ndarray:
    q = torch.ops.quantized_decomposed.quantize_per_tensor(
        torch.from_numpy(values), scale, zero_point, -128, 127, torch.int8
    )
    return q.numpy()


@pytest.mark.parametrize("model", ZOO)
def test_tosa_reference_model_matches_pytorch_quantized_graph(model):
    base = f"tests/aot/{model}_tosa_int"
    blob = open(base + ".pte", "rb").read()
    program = parse_pte(blob)
    plan = program.plan()
    assert [d.id for d in plan.delegates] == ["TOSABackend"], "expected the whole model in one TOSA graph"
    tosa = delegate_payload(blob, program)

    (x,) = read_tensor_file(base + ".input.tensors")
    (expected,) = read_tensor_file(base + ".expected.tensors")
    assert x.scale > 0 and expected.scale > 0
    q_in = quantize(x.data, x.scale, x.zero_point)

    outputs, status = tosa_reference_model.run(tosa, [q_in])
    assert status == tosa_reference_model.GraphStatus.TOSA_VALID, status
    assert len(outputs) == 1
    got = np.asarray(outputs[0]).astype(np.int32).reshape(expected.data.shape)
    want = quantize(expected.data, expected.scale, expected.zero_point).astype(np.int32)
    # expected.data is itself a dequantized int8 tensor: re-quantizing is exact.
    np.testing.assert_allclose(
        (want - expected.zero_point) * np.float32(expected.scale), expected.data, rtol=0, atol=1e-6
    )

    steps = np.abs(got - want)
    exact = float(np.mean(steps == 0))
    histogram = {int(k): int(v) for k, v in zip(*np.unique(steps, return_counts=True))}
    print(f"{model}: {exact:.2%} bit-exact of {steps.size}, max {int(steps.max())} step(s), histogram {histogram}")
    assert steps.max() <= MAX_STEPS, f"{model}: max difference {steps.max()} steps, histogram {histogram}"
