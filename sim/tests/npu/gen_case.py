"""Writes one NPU test case: the Vela payload from a lowered .pte, an input,
and the TOSA reference model's output for the same quantized graph.

The model under test never sees the TOSA graph; the reference never sees the
command stream. Both come from one ExecuTorch Arm lowering of a small
quantized torch module, so a difference is the NPU model's (or Vela's).
With --model_pte and --model_verify_dir the lowering is an ethosu_model's
that the tree builds anyway (the SDK's own flow: its verification inputs
keep the TOSA graph, Vela's debug database and the delegate's input), so a
whole network is not lowered a second time for its NPU case.
"""

from __future__ import annotations

from ethosu_sdk.host_numerics import pin_torch

import json
import os
import shutil
import tempfile
from typing import Callable, Dict, List, Tuple

import numpy as np
import torch
import tosa_reference_model
from absl import flags
from executorch.backends.arm.arm_vela import vela_compile
from executorch.backends.arm.ethosu import EthosUCompileSpec, EthosUPartitioner
from executorch.backends.arm.quantizer import (
    EthosUQuantizer,
    get_symmetric_a16w8_quantization_config,
    get_symmetric_quantization_config,
)
from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower
from executorch.exir._serialize._program import _extract_delegate_payload
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

from ethosu_sdk.cli.held_back import held_back_output
from ethosu_sdk.tensors import read_tensor_file, write_tensor_file
from ethosu_sdk.worker import server

FLAGS = flags.FLAGS
flags.DEFINE_string("case", None, "case name (see CASES)")
flags.DEFINE_string("target", "ethos-u85-256", "Ethos-U accelerator config")
flags.DEFINE_enum(
    "activations", "int8", ["int8", "int16"], "activation type: int8 (A8W8) or int16 (A16W8, int8 weights)"
)
flags.DEFINE_string("payload_out", None, "where to write the delegate payload")
flags.DEFINE_string("tensors_out", None, "where to write inputs then expected outputs (.tensors)")
flags.DEFINE_string("tosa_out", None, "optional: where to copy the TOSA flatbuffer")
flags.DEFINE_string("debug_db_out", None, "optional: where to copy Vela's debug database (layers by command offset)")
flags.DEFINE_multi_string(
    "also",
    [],
    "TARGET=PATH: also compile the case's TOSA graph with Vela for TARGET, another "
    "configuration of the same NPU (same TOSA profile: U55 and U65, or U85 of any "
    "size), and write that payload to PATH; the inputs and expected outputs are the same",
)
flags.DEFINE_string("model_pte", None, "optional: take the lowering from this ethosu_model's .pte instead")
flags.DEFINE_string(
    "model_verify_dir",
    None,
    "with --model_pte: the model's verification inputs (aot_compile --verify_dir): its one partition's "
    "TOSA graph, debug database and input",
)
flags.DEFINE_bool("quiet", False, "print nothing on success; on failure, the log and the traceback (for build actions)")

Shapes = List[Tuple[int, ...]]


class _Lambda(torch.nn.Module):
    def __init__(self, fn: Callable[..., torch.Tensor], *mods: torch.nn.Module) -> None:
        super().__init__()
        self.mods = torch.nn.ModuleList(mods)
        self.fn = fn

    def forward(self, *xs: torch.Tensor) -> torch.Tensor:
        return self.fn(self.mods, *xs)


def _conv(cin: int, cout: int, k: int, s: int, p: int, groups: int = 1) -> torch.nn.Module:
    return _Lambda(lambda m, x: m[0](x), torch.nn.Conv2d(cin, cout, k, s, p, groups=groups))


class _AvgPool(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.avg_pool2d(x, 2, 2)


class _AvgPoolPad(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.avg_pool2d(x, 3, 1, 1, count_include_pad=False)


class _Mean(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.mean(dim=(2, 3), keepdim=True)


def _zoo(name: str) -> Callable[[], torch.nn.Module]:
    """A model from the SDK's zoo (python/ethosu_sdk/models), seeded weights."""

    def build() -> torch.nn.Module:
        from ethosu_sdk.models import registry

        return registry.load_model(name).module

    return build


def _then(activation: Callable[[torch.Tensor], torch.Tensor], layer: torch.nn.Module) -> torch.nn.Module:
    """layer followed by activation. A lone LUT operator would leave the TOSA
    graph without a delegation tag (and its dump unnamed); after a conv or
    linear layer Vela fuses the LUT into it as its activation."""
    return _Lambda(lambda m, x: activation(m[0](x)), layer)


def _self_attention() -> torch.nn.Module:
    from ethosu_sdk.models.attention import SelfAttention

    return SelfAttention(32, 4)


def _transformer_mlp() -> torch.nn.Module:
    """The transformer block's second half: x + mlp(norm(x)), GELU inside."""
    norm, mlp = (
        torch.nn.LayerNorm(32),
        torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 32)),
    )
    return _Lambda(lambda m, x: x + m[1](m[0](x)), norm, mlp)


def _sparse_conv(cin: int, cout: int, k: int) -> torch.nn.Module:
    """A conv whose weights are 2:4 sparse along the input channels (two of
    every four are zero), so Vela encodes them for U85's sparse MAC path."""
    conv = torch.nn.Conv2d(cin, cout, k, 1, k // 2)
    with torch.no_grad():
        conv.weight[:, 1::4] = 0
        conv.weight[:, 2::4] = 0
    return _Lambda(lambda m, x: m[0](x), conv)


def _upsample(scale: int, mode: str, align_corners: bool = False) -> torch.nn.Module:
    """F.interpolate by an integer factor (TOSA RESIZE)."""
    corners = align_corners if mode == "bilinear" else None
    return _Lambda(
        lambda m, x: torch.nn.functional.interpolate(x, scale_factor=scale, mode=mode, align_corners=corners)
    )


# name -> (module factory, input shapes). Shapes are kept small so a case
# lowers in seconds; channel counts cross 16 to exercise bricks.
CASES: Dict[str, Tuple[Callable[[], torch.nn.Module], Shapes]] = {
    "conv1x1": (lambda: _conv(24, 40, 1, 1, 0), [(1, 24, 7, 6)]),
    "conv3x3": (lambda: _conv(8, 16, 3, 1, 0), [(1, 8, 9, 9)]),
    "conv3x3_s2_pad": (lambda: _conv(8, 16, 3, 2, 1), [(1, 8, 9, 9)]),
    "conv3x3_pad_c40": (lambda: _conv(40, 24, 3, 1, 1), [(1, 40, 8, 7)]),
    "depthwise3x3": (lambda: _conv(32, 32, 3, 1, 1, groups=32), [(1, 32, 8, 8)]),
    "depthwise3x3_s2": (lambda: _conv(24, 24, 3, 2, 1, groups=24), [(1, 24, 9, 9)]),
    "linear": (lambda: _Lambda(lambda m, x: m[0](x), torch.nn.Linear(40, 20)), [(2, 40)]),
    "add": (lambda: _Lambda(lambda m, a, b: a + b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "mul": (lambda: _Lambda(lambda m, a, b: a * b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "avgpool": (_AvgPool, [(1, 16, 8, 8)]),
    "maxpool": (lambda: _Lambda(lambda m, x: torch.nn.functional.max_pool2d(x, 3, 2, 1)), [(1, 16, 9, 9)]),
    "mean": (_Mean, [(1, 32, 7, 7)]),
    "conv_relu": (lambda: _Lambda(lambda m, x: torch.relu(m[0](x)), torch.nn.Conv2d(8, 16, 3, 1, 1)), [(1, 8, 6, 6)]),
    "conv_relu6": (
        lambda: _Lambda(lambda m, x: torch.nn.functional.relu6(m[0](x)), torch.nn.Conv2d(8, 16, 3, 1, 1)),
        [(1, 8, 6, 6)],
    ),
    "conv_clamp": (
        lambda: _Lambda(lambda m, x: torch.clamp(m[0](x), -0.5, 0.7), torch.nn.Conv2d(8, 16, 1)),
        [(1, 8, 6, 6)],
    ),
    "concat": (lambda: _Lambda(lambda m, a, b: torch.cat([a, b], dim=1)), [(1, 8, 5, 5), (1, 24, 5, 5)]),
    "reshape": (lambda: _Lambda(lambda m, x: m[0](x).reshape(1, 16, 25), torch.nn.Conv2d(8, 16, 1)), [(1, 8, 5, 5)]),
    "sub": (lambda: _Lambda(lambda m, a, b: a - b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "maximum": (lambda: _Lambda(lambda m, a, b: torch.maximum(a, b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "minimum": (lambda: _Lambda(lambda m, a, b: torch.minimum(a, b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "add_broadcast": (lambda: _Lambda(lambda m, a, b: a + b), [(1, 16, 5, 5), (1, 16, 1, 1)]),
    # Broadcast and scalar operands, one per form Vela 5.1.0 emits on U85
    # (IFM_BROADCAST/IFM2_BROADCAST; the NCHW shapes land transposed): a
    # one-element constant is BROADCAST_MODE_SCALAR with its value in
    # OP_SCALAR, on the IFM2 (`x + c`, `x * c`) or on the IFM (`neg` is
    # 0 - x, `scalar_tensor(c) + x`); a one-element input is a feature map
    # broadcast in H, W and C.
    "add_scalar": (lambda: _Lambda(lambda m, x: x + 3.7), [(1, 2, 3, 4)]),
    "mul_scalar": (lambda: _Lambda(lambda m, x: x * 0.6), [(1, 16, 5, 5)]),
    "add_scalar_tensor": (
        lambda: _Lambda(lambda m, x: torch.scalar_tensor(3.7, dtype=torch.float32) + x),
        [(1, 2, 3, 4)],
    ),
    "neg_rank1": (lambda: _Lambda(lambda m, x: torch.neg(x)), [(160,)]),
    "add_rank1": (lambda: _Lambda(lambda m, a, b: a + b), [(4, 8, 6), (6,)]),
    "add_broadcast_c": (lambda: _Lambda(lambda m, a, b: a + b), [(1, 16, 5, 5), (1, 1, 5, 5)]),
    "add_broadcast_both": (lambda: _Lambda(lambda m, a, b: a + b), [(1, 16, 1, 5), (1, 16, 5, 1)]),
    "mul_broadcast_hwc": (lambda: _Lambda(lambda m, a, b: a * b), [(1, 16, 5, 5), (1, 1, 1, 1)]),
    "avgpool_pad": (_AvgPoolPad, [(1, 16, 6, 6)]),
    "conv3x3_dilation2": (
        lambda: _Lambda(lambda m, x: m[0](x), torch.nn.Conv2d(8, 16, 3, 1, 2, dilation=2)),
        [(1, 8, 9, 9)],
    ),
    "conv9x9": (lambda: _conv(4, 8, 9, 1, 4), [(1, 4, 12, 12)]),
    "conv1x1_deep": (lambda: _conv(96, 80, 1, 1, 0), [(1, 96, 4, 4)]),
    "mobilenet_v2": (_zoo("mobilenet_v2"), [(1, 3, 224, 224)]),
    # LUT activations (int8 256-entry tables).
    "linear_sigmoid": (lambda: _then(torch.sigmoid, torch.nn.Linear(40, 20)), [(2, 40)]),
    "conv_tanh": (lambda: _then(torch.tanh, torch.nn.Conv2d(8, 24, 1)), [(1, 8, 5, 5)]),
    "conv_gelu": (lambda: _then(torch.nn.functional.gelu, torch.nn.Conv2d(8, 16, 3, 1, 1)), [(1, 8, 6, 6)]),
    "conv_hardswish": (lambda: _then(torch.nn.functional.hardswish, torch.nn.Conv2d(8, 16, 1)), [(1, 8, 5, 5)]),
    "softmax": (lambda: _Lambda(lambda m, x: torch.softmax(x, dim=-1)), [(2, 10)]),
    "softmax_c40": (lambda: _Lambda(lambda m, x: torch.softmax(x, dim=-1)), [(1, 3, 40)]),
    "mlp_softmax": (_zoo("mlp_softmax"), [(1, 64)]),
    # Stride 4 (beyond the NPU's 3): Vela decomposes the kernel.
    "conv4x4_s4": (lambda: _conv(8, 16, 4, 4, 0), [(1, 8, 16, 16)]),
    # Matrix products with both operands computed (weights from IFM2), and
    # the 32-bit rescales (accumulators loaded from IFM2) of layer norm.
    "matmul": (lambda: _Lambda(lambda m, a, b: torch.matmul(a, b)), [(1, 16, 24), (1, 24, 20)]),
    "bmm": (lambda: _Lambda(lambda m, a, b: torch.matmul(a, b)), [(1, 4, 16, 8), (1, 4, 8, 16)]),
    "matmul_k256": (lambda: _Lambda(lambda m, a, b: torch.matmul(a, b)), [(1, 16, 256), (1, 256, 16)]),
    "layer_norm": (lambda: _Lambda(lambda m, x: m[0](x), torch.nn.LayerNorm(32)), [(1, 16, 32)]),
    "transformer_block": (_zoo("transformer_block"), [(1, 16, 32)]),
    "self_attention": (_self_attention, [(1, 16, 32)]),
    # U85 2:4 sparse weights: Vela picks the sparse encoding when weights
    # happen to be sparse (one input channel padded to four, or zeros).
    "conv_1ch_10x4": (
        lambda: _Lambda(lambda m, x: m[0](x), torch.nn.Conv2d(1, 64, (10, 4), 2, (5, 1))),
        [(1, 1, 49, 10)],
    ),
    "conv1x1_sparse": (lambda: _sparse_conv(64, 32, 1), [(1, 64, 5, 5)]),
    "conv3x3_sparse": (lambda: _sparse_conv(32, 24, 3), [(1, 32, 6, 6)]),
    "kws_dscnn": (_zoo("kws_dscnn"), [(1, 1, 49, 10)]),
    "softmax_4d": (lambda: _Lambda(lambda m, x: torch.softmax(x, dim=-1)), [(1, 4, 16, 16)]),
    "attention_scores": (
        lambda: _Lambda(lambda m, q, k: torch.matmul(q, k.transpose(-2, -1)) * 0.35),
        [(1, 4, 16, 8), (1, 4, 16, 8)],
    ),
    # Not a test target: Vela 5.1.0 keeps the 5-D shape of an unbind()
    # result as the MatMul IFM and never advances IFM_BASE0 per head, so
    # heads 1-3 reuse head 0's rows (see sim/npu/README.md). Kept to
    # reproduce that with --case=attention_scores_unbind.
    "attention_scores_unbind": (
        lambda: _Lambda(lambda m, x: (lambda q, k: torch.matmul(q, k.transpose(-2, -1)) * 0.35)(*x.unbind(0))),
        [(2, 1, 4, 16, 8)],
    ),
    "permute_heads": (
        lambda: _Lambda(
            lambda m, x: m[0](x).reshape(1, 16, 3, 4, 8).permute(2, 0, 3, 1, 4) * 1.5, torch.nn.Linear(32, 96)
        ),
        [(1, 16, 32)],
    ),
    "transformer_mlp": (_transformer_mlp, [(1, 16, 32)]),
    # torch.flip: on U85 Vela fuses TOSA REVERSE into the producer's OFM
    # (OFM_PRECISION's reverse field); one case per axis of NCHW.
    "flip_h": (lambda: _then(lambda x: torch.flip(x, dims=[2]), torch.nn.Conv2d(8, 16, 1)), [(1, 8, 6, 5)]),
    "flip_w": (lambda: _then(lambda x: torch.flip(x, dims=[3]), torch.nn.Conv2d(8, 16, 1)), [(1, 8, 6, 5)]),
    "flip_c": (lambda: _then(lambda x: torch.flip(x, dims=[1]), torch.nn.Conv2d(8, 24, 1)), [(1, 8, 6, 5)]),
    # Large enough that Vela splits the operation into stripes and blocks.
    "flip_w_large": (
        lambda: _then(lambda x: torch.flip(x, dims=[3]), torch.nn.Conv2d(16, 48, 3, 1, 1)),
        [(1, 16, 40, 72)],
    ),
    # Upsampling (TOSA RESIZE): U85 NPU_OP_RESIZE; U55 IFM upscale.
    "upsample_nearest_x2": (lambda: _upsample(2, "nearest"), [(1, 16, 5, 6)]),
    "upsample_nearest_x4": (lambda: _upsample(4, "nearest"), [(1, 16, 5, 6)]),
    "upsample_bilinear_x2": (lambda: _upsample(2, "bilinear"), [(1, 16, 5, 6)]),
    "upsample_bilinear_x4": (lambda: _upsample(4, "bilinear"), [(1, 16, 5, 6)]),
    "upsample_bilinear_x2_align": (lambda: _upsample(2, "bilinear", True), [(1, 16, 5, 6)]),
    "upsample_bilinear_x4_align": (lambda: _upsample(4, "bilinear", True), [(1, 16, 5, 6)]),
    # Large enough for OFM blocks narrower than the OFM (U85) and stripes.
    "upsample_nearest_x2_large": (lambda: _upsample(2, "nearest"), [(1, 24, 20, 36)]),
    "upsample_bilinear_x2_large": (lambda: _upsample(2, "bilinear"), [(1, 24, 20, 36)]),
    # Transpose convolution, stride 2: U55 reads the IFM upscaled with zeros.
    # MobileNetV2's residual blocks: a convolution whose output both the
    # next convolution and an ADD read. At A16W8 on U85 Vela writes its raw
    # 48-bit accumulators as a 64-bit OFM and rescales them once per
    # reader (pooling mode NONE with a 64-bit IFM2).
    "conv_residual": (
        lambda: _Lambda(
            lambda m, x: (lambda y: m[1](y) + y)(m[0](x)), torch.nn.Conv2d(8, 24, 1), torch.nn.Conv2d(24, 24, 1)
        ),
        [(1, 8, 6, 5)],
    ),
    # CONV3D (U85): one CONV per kernel depth slice, each after the first
    # starting from the previous slice's int32 accumulators (ACC_INPUT IFM2).
    "conv3d": (
        lambda: _Lambda(lambda m, x: m[0](x), torch.nn.Conv3d(4, 8, (2, 3, 3), 1, (0, 1, 1))),
        [(1, 4, 3, 6, 5)],
    ),
    # Stride 3 on every axis, sizes the stride divides: the functional
    # model is exact here; what failed at 8x9x8 was Vela reading
    # ExecuTorch's crop SLICE as dense (sim/npu/README.md).
    "conv3d_stride3": (
        lambda: _Lambda(lambda m, x: m[0](x), torch.nn.Conv3d(3, 3, 3, 3)),
        [(1, 3, 6, 9, 6)],
    ),
    # Strides beyond 3 in a CONV3D (U85): Vela runs each depth slice as one
    # 1x1 convolution per kernel tap on the same OFM block, the
    # accumulators kept inside the NPU between them (ACC_INPUT KEEP,
    # ACC_OUTPUT disabled but for the last tap). `_wide`: an OFM of
    # 13x13x64 (43 KiB of accumulators, the U85-256 has 16 KiB), which Vela
    # chains one OFM block at a time (4 rows x 13 x 32 and smaller). A
    # Conv2d with such strides reaches Vela in another form (no chaining).
    "conv3d_stride4": (
        lambda: _Lambda(lambda m, x: m[0](x), torch.nn.Conv3d(4, 16, (2, 3, 3), (1, 4, 4))),
        [(1, 4, 3, 11, 11)],
    ),
    "conv3d_stride5_wide": (
        lambda: _Lambda(lambda m, x: m[0](x), torch.nn.Conv3d(4, 64, (2, 4, 4), (1, 5, 5))),
        [(1, 4, 2, 64, 64)],
    ),
    "conv_transpose_s2": (lambda: _Lambda(lambda m, x: m[0](x), torch.nn.ConvTranspose2d(8, 16, 3, 2)), [(1, 8, 5, 6)]),
    # Comparisons (bool outputs; U85 CMP_* then an AND that makes TOSA's 0/1).
    "gt": (lambda: _Lambda(lambda m, a, b: a > b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "ge": (lambda: _Lambda(lambda m, a, b: a >= b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "lt": (lambda: _Lambda(lambda m, a, b: a < b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "le": (lambda: _Lambda(lambda m, a, b: a <= b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "eq": (lambda: _Lambda(lambda m, a, b: a == b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "ne": (lambda: _Lambda(lambda m, a, b: a != b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    # TOSA SELECT: on U85 a mask ANDed with one operand, AND_NOT with the
    # other, then OR.
    "where": (lambda: _Lambda(lambda m, a, b: torch.where(a > b, a, b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    # Bit and logical operations on integer and bool inputs (INPUT_KINDS).
    "bitwise_and": (lambda: _Lambda(lambda m, a, b: a & b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "bitwise_or": (lambda: _Lambda(lambda m, a, b: a | b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "bitwise_xor": (lambda: _Lambda(lambda m, a, b: a ^ b), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "bitwise_not": (lambda: _Lambda(lambda m, a: ~a), [(1, 16, 5, 5)]),
    "logical_and": (lambda: _Lambda(lambda m, a, b: torch.logical_and(a, b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "logical_or": (lambda: _Lambda(lambda m, a, b: torch.logical_or(a, b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "logical_xor": (lambda: _Lambda(lambda m, a, b: torch.logical_xor(a, b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "logical_not": (lambda: _Lambda(lambda m, a: torch.logical_not(a)), [(1, 16, 5, 5)]),
    # Shifts by a tensor of amounts (ELEMENTWISE SHL, SHR).
    "shl": (lambda: _Lambda(lambda m, a, b: a.bitwise_left_shift(b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "shr": (lambda: _Lambda(lambda m, a, b: a.bitwise_right_shift(b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
    "shr_int8": (lambda: _Lambda(lambda m, a, b: a.bitwise_right_shift(b)), [(1, 16, 5, 5), (1, 16, 5, 5)]),
}

# Cases whose graph inputs are not quantized floats: one kind per input.
# "int8": any int8; "bool"; "int32": any int32; "shift": int32 in 0..31,
# "shift8": int8 in 0..7 (the shift amounts TOSA allows). A case listed here is lowered unquantized.
INPUT_KINDS: Dict[str, List[str]] = {
    "bitwise_and": ["int8", "int8"],
    "bitwise_or": ["int8", "int8"],
    "bitwise_xor": ["int8", "int8"],
    "bitwise_not": ["int8"],
    "logical_and": ["bool", "bool"],
    "logical_or": ["bool", "bool"],
    "logical_xor": ["bool", "bool"],
    "logical_not": ["bool"],
    "shl": ["int32", "shift"],
    "shr": ["int32", "shift"],
    "shr_int8": ["int8", "shift8"],
}


def _calibration_input(kind: str, shape: Tuple[int, ...]) -> torch.Tensor:
    if kind == "int8":
        return torch.randint(-128, 128, shape, dtype=torch.int8)
    if kind == "bool":
        return torch.rand(shape) > 0.5
    if kind == "int32":
        return torch.randint(-(2**31), 2**31 - 1, shape, dtype=torch.int32)
    if kind == "shift":
        return torch.randint(0, 32, shape, dtype=torch.int32)
    if kind == "shift8":
        return torch.randint(0, 8, shape, dtype=torch.int8)
    raise ValueError(f"unknown input kind {kind}")


def _test_input(rng: np.random.RandomState, kind: str, shape: Tuple[int, ...]) -> np.ndarray:
    if kind == "int8":
        return rng.randint(-128, 128, size=shape).astype(np.int8)
    if kind == "bool":
        return rng.randint(0, 2, size=shape).astype(np.bool_)
    if kind == "int32":
        return rng.randint(-(2**31), 2**31, size=shape, dtype=np.int64).astype(np.int32)
    if kind == "shift":
        return rng.randint(0, 32, size=shape).astype(np.int32)
    if kind == "shift8":
        return rng.randint(0, 8, size=shape).astype(np.int8)
    raise ValueError(f"unknown input kind {kind}")


def lower(
    case: str, target: str, work_dir: str, debug_db: bool = False, activations: str = "int8"
) -> Tuple[bytes, bytes]:
    """Quantizes and lowers the case; returns (.pte bytes, TOSA flatbuffer).

    With `debug_db`, Vela also writes its debug database into work_dir/output
    (the command stream is the same either way).
    """
    factory, shapes = CASES[case]
    torch.manual_seed(0)
    module = factory().eval()
    kinds = INPUT_KINDS.get(case)
    if kinds is not None:
        return _lower_unquantized(module, [_calibration_input(k, s) for k, s in zip(kinds, shapes)], target, work_dir)
    calib = tuple(torch.randn(s) for s in shapes)
    spec = EthosUCompileSpec(target, extra_flags=["--enable-debug-db"] if debug_db else None)
    spec.dump_intermediate_artifacts_to(work_dir)
    quantizer = EthosUQuantizer(spec)
    quantizer.set_global(
        get_symmetric_a16w8_quantization_config() if activations == "int16" else get_symmetric_quantization_config()
    )
    graph = torch.export.export(module, calib).module(check_guards=False)
    prepared = prepare_pt2e(graph, quantizer)
    for _ in range(4):
        prepared(*(torch.randn(s) for s in shapes))
    prepared(*calib)
    converted = convert_pt2e(prepared)
    edge = to_edge_transform_and_lower(torch.export.export(converted, calib), partitioner=[EthosUPartitioner(spec)])
    return edge.to_executorch().buffer, _tosa_graph(work_dir)


def _lower_unquantized(
    module: torch.nn.Module, inputs: List[torch.Tensor], target: str, work_dir: str
) -> Tuple[bytes, bytes]:
    """Integer and bool graphs: nothing to quantize, lowered as exported.
    The shifts (aten.bitwise_*_shift) are not core ATen, hence no IR check
    (the partitioner delegates them)."""
    spec = EthosUCompileSpec(target)
    spec.dump_intermediate_artifacts_to(work_dir)
    edge = to_edge_transform_and_lower(
        torch.export.export(module, tuple(inputs)),
        partitioner=[EthosUPartitioner(spec)],
        compile_config=EdgeCompileConfig(_check_ir_validity=False),
    )
    return edge.to_executorch().buffer, _tosa_graph(work_dir)


def _tosa_graph(work_dir: str) -> bytes:
    tosa_files = [f for f in os.listdir(work_dir) if f.startswith("output_tag") and f.endswith(".tosa")]
    if len(tosa_files) != 1:
        raise RuntimeError(f"expected one TOSA graph (one delegate), got {tosa_files}")
    with open(os.path.join(work_dir, tosa_files[0]), "rb") as f:
        return f.read()


def _payload_for(target: str, tosa: bytes, main_target: str) -> bytes:
    """The delegate payload a lowering for `target` gives, from the TOSA graph
    lowered for `main_target`: the graph depends only on the TOSA profile, so
    only Vela runs again (a MobileNetV2 lowering costs a minute, Vela seconds)."""
    spec, main_spec = EthosUCompileSpec(target), EthosUCompileSpec(main_target)
    if str(spec.tosa_spec) != str(main_spec.tosa_spec):
        raise ValueError(
            f"--also={target}: its TOSA profile {spec.tosa_spec} is not {main_target}'s {main_spec.tosa_spec}"
        )
    with tempfile.TemporaryDirectory() as work_dir:
        return vela_compile(tosa, list(spec.compiler_flags), intermediate_path=work_dir).processed_bytes


def main(argv: List[str]) -> None:
    del argv
    pin_torch()  # the same bytes on every host
    if not FLAGS.quiet:
        write_case()
        return
    with held_back_output() as replay:
        try:
            write_case()
        except BaseException:
            replay()
            raise


def _lowered_case() -> Tuple[bytes, bytes, List[np.ndarray]]:
    """(.pte, TOSA graph, inputs) of the case lowered here, random inputs."""
    with tempfile.TemporaryDirectory() as work_dir:
        pte, tosa = lower(
            FLAGS.case, FLAGS.target, work_dir, debug_db=bool(FLAGS.debug_db_out), activations=FLAGS.activations
        )
        if FLAGS.debug_db_out:
            shutil.copyfile(os.path.join(work_dir, "output", "out_debug.xml"), FLAGS.debug_db_out)
    _, shapes = CASES[FLAGS.case]
    rng = np.random.RandomState(1234)
    kinds = INPUT_KINDS.get(FLAGS.case)
    if kinds is not None:
        return pte, tosa, [_test_input(rng, k, s) for k, s in zip(kinds, shapes)]
    dtype = np.int16 if FLAGS.activations == "int16" else np.int8
    info = np.iinfo(dtype)
    return pte, tosa, [rng.randint(info.min, info.max + 1, size=s).astype(dtype) for s in shapes]


def _model_case(pte_path: str, verify_dir: str) -> Tuple[bytes, bytes, List[np.ndarray]]:
    """(.pte, TOSA graph, inputs) of an ethosu_model's lowering: its one
    partition's graph and the input its verification ran."""
    with open(os.path.join(verify_dir, "manifest.json")) as f:
        partitions = json.load(f)["partitions"]
    if len(partitions) != 1:
        raise ValueError(f"{verify_dir}: an NPU case takes a model of one partition, not {len(partitions)}")
    (partition,) = partitions
    if partition.get("skipped"):
        raise ValueError(f"{verify_dir}: its partition was not verified ({partition['skipped']})")
    with open(pte_path, "rb") as f:
        pte = f.read()
    with open(os.path.join(verify_dir, partition["tosa"]), "rb") as f:
        tosa = f.read()
    if FLAGS.debug_db_out:
        shutil.copyfile(os.path.join(verify_dir, partition["debug_db"]), FLAGS.debug_db_out)
    inputs = [t.data for t in read_tensor_file(os.path.join(verify_dir, partition["inputs"]))]
    return pte, tosa, inputs


def write_case() -> None:
    if bool(FLAGS.model_pte) != bool(FLAGS.model_verify_dir):
        raise ValueError("--model_pte and --model_verify_dir go together")
    if FLAGS.model_pte:
        pte, tosa, inputs = _model_case(FLAGS.model_pte, FLAGS.model_verify_dir)
    else:
        pte, tosa, inputs = _lowered_case()
    payload = _extract_delegate_payload(pte, "EthosUBackend")
    if payload is None:
        raise RuntimeError("no EthosUBackend delegate in the program")
    outputs, status = tosa_reference_model.run(tosa, inputs)
    if status != tosa_reference_model.GraphStatus.TOSA_VALID:
        raise RuntimeError(f"TOSA reference model: {status}")
    with open(FLAGS.payload_out, "wb") as f:
        f.write(payload)
    for also in FLAGS.also:
        target, _, path = also.partition("=")
        with open(path, "wb") as f:
            f.write(_payload_for(target, tosa, FLAGS.target))
    write_tensor_file(FLAGS.tensors_out, inputs + [np.asarray(o) for o in outputs])
    if FLAGS.tosa_out:
        with open(FLAGS.tosa_out, "wb") as f:
            f.write(tosa)


if __name__ == "__main__":
    flags.mark_flags_as_required(["case", "payload_out", "tensors_out"])
    server.run(main)  # with --persistent_worker, a Bazel worker
