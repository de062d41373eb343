"""Generates small CPU-only ExecuTorch programs (.pte) and their inputs.

Each program is exported with torch.export, lowered with to_edge and
to_executorch, no delegate. Most quantized programs spell out
quantized_decomposed quantize/dequantize ops in the model, so integer tensors
flow between CPU kernels; `pt2e_*` programs are quantized with PT2E and
ExecuTorch's EthosUQuantizer, then lowered without the NPU partitioner.

    make_programs --out_dir=DIR   # DIR/<name>.pte and DIR/<name>.tensors for
                                  # every program, plus the extra files below

A .tensors file holds each tensor in memory order (schema/tensor_file.md):
a channels-last input [1,3,4,5] is written as [1,4,5,3].

Extra files: broken_*.pte, valid flatbuffers with one index or offset out of
range or a dim order that is not a permutation, and the REFUSED programs and
mixed_dim_order.pte, channels-last tensors where our kernels cannot take
them (the runtime's error tests); delegate_demo.pte/.tensors/
.expected.tensors, a program with a DelegateCall to ExecuTorch's demo
backend and PyTorch's output for it (the backend interface test); the
EAGER programs' .pte/.tensors/.expected.tensors, programs ExecuTorch's
runtime refuses and ours runs, with PyTorch's outputs.
"""

from __future__ import annotations

import copy
import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import executorch.kernels.quantized  # noqa: F401  (registers the quantized_decomposed .out ops)
import torch
from absl import app, flags
from executorch.exir import EdgeCompileConfig, to_edge
from executorch.exir._serialize._program import deserialize_pte_binary, serialize_pte_binary

from ethosu_sdk.tensors.tensor_file import encode

FLAGS = flags.FLAGS
flags.DEFINE_string("out_dir", None, "Directory for the .pte and .tensors files.")
flags.DEFINE_bool("list", False, "Print the program names and exit.")

qd = torch.ops.quantized_decomposed


def _q(x: torch.Tensor, scale: float, zp: int) -> torch.Tensor:
    return qd.quantize_per_tensor(x, scale, zp, -128, 127, torch.int8)


def _dq(x: torch.Tensor, scale: float, zp: int) -> torch.Tensor:
    return qd.dequantize_per_tensor(x, scale, zp, -128, 127, torch.int8)


class Add(torch.nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a + b


class ArithChain(torch.nn.Module):
    """sub, mul with a broadcast, relu, hardtanh, clamp, clone."""

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        x = torch.relu((a - b) * b[0:1])
        x = torch.nn.functional.hardtanh(x, -0.5, 1.5)
        return torch.clamp(x * 3.0, min=0.25, max=2.0).clone() + a


class ConvNet(torch.nn.Module):
    """conv, depthwise conv, grouped conv, pools, relu, mean, linear, softmax."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, stride=1, padding=1)
        self.dw = torch.nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8)
        self.grouped = torch.nn.Conv2d(8, 8, 1, groups=2, bias=False)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv(x))
        x = torch.nn.functional.max_pool2d(x, 2, 2)
        x = torch.nn.functional.hardtanh(self.dw(x), 0.0, 6.0)
        x = torch.nn.functional.avg_pool2d(self.grouped(x), 2, 1)
        x = x.mean(dim=(2, 3))
        return torch.softmax(self.fc(x), dim=-1)


class ZooLike(torch.nn.Module):
    """What a CPU-only lowering of a zoo CNN leaves: conv, inference batch
    norm, relu6, adaptive pooling (as mean), flatten, SiLU, dropout (as a
    clone), linear, tanh."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.bn.running_mean.uniform_(-0.5, 0.5)
        self.bn.running_var.uniform_(0.5, 2.0)
        self.bn.weight.data.uniform_(0.5, 1.5)
        self.bn.bias.data.uniform_(-0.2, 0.2)
        self.pool = torch.nn.AdaptiveAvgPool2d((1, 1))
        self.drop = torch.nn.Dropout(0.2)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.nn.functional.relu6(self.bn(self.conv(x)))
        x = torch.flatten(self.pool(x), 1)
        x = torch.sigmoid(x) * x
        return self.fc(self.drop(x)).tanh()


class PoolEdges(torch.nn.Module):
    """Pooling corner cases: padding, ceil_mode, count_include_pad=False,
    divisor_override, dilated max pooling."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = torch.nn.functional
        a = f.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
        b = f.avg_pool2d(x, 2, stride=2, padding=1, ceil_mode=True, count_include_pad=True)
        c = f.avg_pool2d(x, 3, stride=3, divisor_override=5)
        d = f.max_pool2d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True)
        return torch.cat([t.flatten(1) for t in (a, b, c, d)], dim=1)


class DilatedConv1d(torch.nn.Module):
    """1-D convolution with stride, dilation and groups, then a strided
    2-D convolution without bias."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1d = torch.nn.Conv1d(4, 6, 3, stride=2, padding=2, dilation=2, groups=2)
        self.conv2d = torch.nn.Conv2d(1, 3, (2, 3), stride=(2, 1), padding=(0, 1), bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv1d(x)  # (1, 6, L)
        return self.conv2d(y.unsqueeze(1))


class QuantUint8(torch.nn.Module):
    """uint8 quantization with non-zero zero points, per-channel dequantize
    with int64 zero points, integer output."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("s", torch.tensor([0.05, 0.1, 0.02], dtype=torch.float64))
        self.register_buffer("zp", torch.tensor([128, 100, 3], dtype=torch.int64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q = qd.quantize_per_channel(x, self.s, self.zp, 1, 0, 255, torch.uint8)
        y = qd.dequantize_per_channel(q, self.s, self.zp, 1, 0, 255, torch.uint8)
        return qd.quantize_per_tensor(y * 2.0, 0.07, 130, 0, 255, torch.uint8)


class SmallCnn(torch.nn.Module):
    """Quantized with PT2E and ExecuTorch's EthosUQuantizer, then lowered
    without a delegate (see _pt2e_quantized): int8 activations, per-channel
    int8 weights and int32 biases, all quantize/dequantize on the CPU."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.dw = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv(x))
        x = torch.relu(self.dw(x)) + x
        return self.fc(x.mean(dim=(2, 3)))


def _pt2e_quantized(model: torch.nn.Module, inputs: Tuple[torch.Tensor, ...]) -> torch.nn.Module:
    """PT2E: EthosUQuantizer's symmetric int8 config, calibrated on `inputs`."""
    from executorch.backends.arm.ethosu import EthosUCompileSpec
    from executorch.backends.arm.quantizer import EthosUQuantizer, get_symmetric_quantization_config
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    quantizer = EthosUQuantizer(EthosUCompileSpec("ethos-u55-128"))
    quantizer.set_global(get_symmetric_quantization_config())
    graph = torch.export.export(model, inputs).module(check_guards=False)
    prepared = prepare_pt2e(graph, quantizer)
    prepared(*inputs)
    return convert_pt2e(prepared)


class Mlp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.fc1(x.view(2, 16)))
        return torch.softmax(self.fc2(x), dim=1)


class Shapes(torch.nn.Module):
    """permute, cat, view, mm, addmm."""

    def __init__(self) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(6, 4))
        self.bias = torch.nn.Parameter(torch.randn(4))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        x = torch.cat([a.permute(0, 2, 1), b], dim=1)  # (2, 6, 3)
        y = x.reshape(6, 6)
        return torch.addmm(self.bias, y, self.w).reshape(2, 3, 4) + torch.mm(y, self.w).view(2, 3, 4)


class QuantAdd(torch.nn.Module):
    """int8 in, int8 out: dequantize, add, quantize (CPU int8 arithmetic)."""

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _q(_dq(a, 0.05, 3) + _dq(b, 0.02, -7), 0.06, -1)


class QuantRoundTrip(torch.nn.Module):
    """float in, int8 out: tests quantize rounding (ties, saturation)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _q(x, 0.1, 5)


class QuantConv(torch.nn.Module):
    """int8 conv net as a CPU-only PT2E lowering leaves it: per-channel int8
    weights dequantized in the graph, activations quantized per tensor."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(1)
        w = torch.randn(6, 3, 3, 3) * 0.3
        self.w_scale = (w.abs().amax(dim=(1, 2, 3)) / 127.0).to(torch.float32)
        self.register_buffer("w_q", torch.round(w / self.w_scale.view(-1, 1, 1, 1)).clamp(-127, 127).to(torch.int8))
        self.register_buffer("w_s", self.w_scale)
        self.register_buffer("w_zp", torch.zeros(6, dtype=torch.int64))
        self.bias = torch.nn.Parameter(torch.randn(6) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xq = _q(x, 0.02, 0)
        xf = _dq(xq, 0.02, 0)
        wf = qd.dequantize_per_channel(self.w_q, self.w_s, self.w_zp, 0, -127, 127, torch.int8)
        y = torch.nn.functional.conv2d(xf, wf, self.bias, stride=1, padding=1)
        y = torch.relu(y)
        yq = _q(y, 0.03, -128)
        return _dq(yq, 0.03, -128)


class QuantLinearOut(torch.nn.Module):
    """Per-channel quantize of a float tensor and an int8 output."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(2)
        self.fc = torch.nn.Linear(12, 7)
        # ExecuTorch's quantize_per_channel kernel takes float64 scales.
        self.register_buffer("s", torch.tensor([0.01, 0.02, 0.03, 0.05, 0.07, 0.11, 0.13], dtype=torch.float64))
        self.register_buffer("zp", torch.tensor([0, 1, -2, 3, -4, 5, -6], dtype=torch.int64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = _dq(_q(x, 0.01, 2), 0.01, 2)
        y = self.fc(x)
        return qd.quantize_per_channel(y, self.s, self.zp, 1, -128, 127, torch.int8)


class Normalising(torch.nn.Module):
    """Softmax and RMS normalisation spelled out: amax, exp, sum, reciprocal, rsqrt."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shifted = x - torch.amax(x, dim=-1, keepdim=True)
        e = torch.exp(shifted)
        softmax = e * torch.reciprocal(torch.sum(e, dim=-1, keepdim=True))
        rms = torch.rsqrt(torch.mean(x * x, dim=-1, keepdim=True) + 1e-5)
        return softmax + x * rms


class AttentionOps(torch.nn.Module):
    """What a transformer block leaves on the CPU: layer norm, batched matmul,
    expand, GELU (erf and tanh forms)."""

    def __init__(self) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(8)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        scores = torch.bmm(self.norm(x), y.expand(3, 8, 5))
        return torch.nn.functional.gelu(scores) + torch.nn.functional.gelu(scores, approximate="tanh")


class ChannelsLastUnary(torch.nn.Module):
    """Elementwise kernels on a channels-last input: ExecuTorch keeps the
    input, every intermediate and the output in dim order (0,2,3,1)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.nn.functional.hardtanh(torch.relu(x), 0.0, 1.5)
        return torch.tanh(torch.sigmoid(torch.clamp(x, min=0.25, max=1.25)))


class ChannelsLastQuantized(torch.nn.Module):
    """Quantized with PT2E: the CPU graph is quantize -> dequantize -> relu ->
    quantize -> dequantize, all in the channels-last dim order of its input."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


class ChannelsLastConv(torch.nn.Module):
    """A channels-last input into convolution, a kernel that reads every
    tensor's dim order (input, weight and output channels-last)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


Program = Tuple[Callable[[], torch.nn.Module], Callable[[], Tuple[torch.Tensor, ...]]]


def _channels_last(*shape: int) -> torch.Tensor:
    return torch.randn(*shape).to(memory_format=torch.channels_last)


def _rand(*shape: int) -> torch.Tensor:
    return torch.randn(*shape)


def _int8(*shape: int) -> torch.Tensor:
    return torch.randint(-128, 128, shape, dtype=torch.int8)


PROGRAMS: Dict[str, Program] = {
    "add_f32": (Add, lambda: (_rand(2, 3, 4), _rand(2, 3, 4))),
    "add_broadcast_f32": (Add, lambda: (_rand(2, 3, 4), _rand(1, 4))),
    "add_i32": (
        Add,
        lambda: (
            (torch.randint(-1000, 1000, (3, 5), dtype=torch.int32),) * 1
            + (torch.randint(-1000, 1000, (3, 5), dtype=torch.int32),)
        ),
    ),
    "arith_chain_f32": (ArithChain, lambda: (_rand(4, 6), _rand(4, 6))),
    "conv_net_f32": (ConvNet, lambda: (_rand(1, 3, 16, 16),)),
    "mlp_softmax_f32": (Mlp, lambda: (_rand(4, 8),)),
    "zoo_like_f32": (ZooLike, lambda: (_rand(1, 3, 16, 16),)),
    "pool_edges_f32": (PoolEdges, lambda: (_rand(1, 2, 9, 11),)),
    "conv1d_dilated_f32": (DilatedConv1d, lambda: (_rand(1, 4, 17),)),
    "quant_uint8": (QuantUint8, lambda: (_rand(2, 3, 5) * 4,)),
    "pt2e_cnn_int8": (SmallCnn, lambda: (_rand(1, 3, 8, 8),)),
    "shapes_f32": (Shapes, lambda: (_rand(2, 3, 3), _rand(2, 3, 3))),
    "quant_add_int8": (QuantAdd, lambda: (_int8(2, 8), _int8(2, 8))),
    "quantize_int8": (
        QuantRoundTrip,
        lambda: (torch.tensor([[-20.0, -0.25, -0.15, -0.05, 0.05, 0.15, 0.25, 0.35, 12.65, 30.0]]),),
    ),
    "quant_conv_int8": (QuantConv, lambda: (_rand(1, 3, 8, 8),)),
    "quant_linear_int8": (QuantLinearOut, lambda: (_rand(3, 12),)),
    "normalising_f32": (Normalising, lambda: (_rand(3, 4, 10),)),
    "attention_ops_f32": (AttentionOps, lambda: (_rand(3, 4, 8), _rand(1, 8, 5))),
    "channels_last_f32": (ChannelsLastUnary, lambda: (_channels_last(2, 3, 4, 5),)),
    "pt2e_channels_last_int8": (ChannelsLastQuantized, lambda: (_channels_last(1, 3, 4, 5),)),
    "channels_last_conv_f32": (ChannelsLastConv, lambda: (_channels_last(1, 3, 6, 7),)),
}

# Programs ExecuTorch's runtime refuses and ours runs, compared with
# PyTorch eager (`<name>.expected.tensors`): ExecuTorch's cortex_m add
# broadcast_3 case as the SDK lowers it, a channels-last (2,1,2,1) plus a
# channels-last (1,2,1,2) whose (2,2,2,2) sum torch lays out in dim order
# (0,3,2,1); its portable add wants all tensors contiguous or all
# channels-last, while all three lie as (0,3,2,1) does.
EAGER: Dict[str, Program] = {
    "broadcast_dim_orders_f32": (
        Add,
        lambda: (_channels_last(2, 1, 2, 1), _channels_last(1, 2, 1, 2)),
    ),
}

# Programs our runtime must refuse at load: a channels-last input into an
# elementwise kernel with an operand of another rank (add broadcasting a
# 1-D tensor: ExecuTorch's rule wants all tensors in one dim order).
REFUSED: Dict[str, Program] = {
    "channels_last_add_f32": (Add, lambda: (_channels_last(1, 3, 4, 5), _rand(5))),
}


def build(name: str) -> Tuple[bytes, Tuple[torch.Tensor, ...]]:
    """Lowers program `name` without a delegate; returns the .pte and inputs."""
    make_model, make_inputs = {**PROGRAMS, **REFUSED, **EAGER}[name]
    torch.manual_seed(0)
    model = make_model().eval()
    inputs = make_inputs()
    if name.startswith("pt2e_"):
        model = _pt2e_quantized(model, inputs)
    exported = torch.export.export(model, inputs)
    edge = to_edge(exported, compile_config=EdgeCompileConfig(_check_ir_validity=False))
    return edge.to_executorch().buffer, inputs


def io_dim_orders(pte: bytes) -> Tuple[List[List[int]], List[List[int]]]:
    """The dim orders of method forward's inputs and of its outputs."""
    plan = deserialize_pte_binary(pte).program.execution_plan[0]
    orders = lambda indices: [list(plan.values[i].val.dim_order) for i in indices]  # noqa: E731
    return orders(plan.inputs), orders(plan.outputs)


def to_memory_order(t: torch.Tensor, dim_order: Sequence[int]) -> torch.Tensor:
    """`t` as a tensor in `dim_order` lies in memory: sizes listed in dim
    order, contiguous (a channels-last [1,3,4,5] gives [1,4,5,3])."""
    return t.permute(*dim_order).contiguous()


def from_memory_order(t: torch.Tensor, dim_order: Sequence[int]) -> torch.Tensor:
    """The inverse of to_memory_order: a view with the logical sizes and the
    strides of `dim_order` (channels-last strides for (0,2,3,1))."""
    return t.permute(*[list(dim_order).index(d) for d in range(len(dim_order))])


def tensor_file(tensors: List[torch.Tensor], dim_orders: Optional[Sequence[Sequence[int]]] = None) -> bytes:
    """Serialises tensors in the format of schema/tensor_file.md: each in
    memory order for its dim order (`dim_orders`, default 0..R-1)."""
    ordered = [
        to_memory_order(t, dim_orders[i]) if dim_orders is not None else t.contiguous() for i, t in enumerate(tensors)
    ]
    return encode([t.numpy() for t in ordered])


def _first_tensor(plan, predicate) -> int:
    for i, value in enumerate(plan.values):
        if type(value.val).__name__ == "Tensor" and predicate(value.val):
            return i
    raise ValueError("no such tensor")


def broken_variants(pte: bytes) -> Dict[str, bytes]:
    """Copies of `pte` with one index or offset out of range each."""
    out: Dict[str, bytes] = {}

    def mutate(name: str, change: Callable[[object], None]) -> None:
        pte_file = deserialize_pte_binary(pte)
        change(pte_file.program.execution_plan[0])
        out[name] = bytes(serialize_pte_binary(copy.deepcopy(pte_file)))

    def op_index(plan) -> None:
        plan.chains[0].instructions[0].instr_args.op_index = len(plan.operators) + 7

    def value_index(plan) -> None:
        plan.chains[0].instructions[0].instr_args.args[0] = len(plan.values) + 100

    def constant_index(plan) -> None:
        plan.values[_first_tensor(plan, lambda t: t.data_buffer_idx > 0)].val.data_buffer_idx = 1000

    def memory_offset(plan) -> None:
        tensor = plan.values[_first_tensor(plan, lambda t: t.allocation_info is not None)].val
        tensor.allocation_info.memory_offset_low = plan.non_const_buffer_sizes[1] - 4

    def memory_id(plan) -> None:
        tensor = plan.values[_first_tensor(plan, lambda t: t.allocation_info is not None)].val
        tensor.allocation_info.memory_id = 9

    def dim_order(plan) -> None:
        plan.values[plan.inputs[0]].val.dim_order = [0, 2, 2, 1]  # not a permutation

    def jump(plan) -> None:
        from executorch.exir.schema import Instruction, JumpFalseCall

        cond = next(i for i, v in enumerate(plan.values) if type(v.val).__name__ == "Bool")
        plan.chains[0].instructions.append(
            Instruction(JumpFalseCall(cond_value_index=cond, destination_instruction=500))
        )

    for name, change in [
        ("broken_op_index", op_index),
        ("broken_value_index", value_index),
        ("broken_constant_index", constant_index),
        ("broken_memory_offset", memory_offset),
        ("broken_memory_id", memory_id),
        ("broken_jump", jump),
        ("broken_dim_order", dim_order),
    ]:
        mutate(name, change)
    return out


def mixed_dim_order(pte: bytes) -> bytes:
    """channels_last_f32 with its output in the default dim order: its last
    kernel (tanh, elementwise) then gets tensors in two dim orders."""
    pte_file = deserialize_pte_binary(pte)
    plan = pte_file.program.execution_plan[0]
    plan.values[plan.outputs[0]].val.dim_order = [0, 1, 2, 3]
    return bytes(serialize_pte_binary(copy.deepcopy(pte_file)))


class _Sin(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sin(x)


class _Delegated(torch.nn.Module):
    def __init__(self, lowered: torch.nn.Module) -> None:
        super().__init__()
        self.lowered = lowered

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.lowered(x)) + x


def delegate_demo() -> Tuple[bytes, torch.Tensor, torch.Tensor]:
    """A program with one DelegateCall (ExecuTorch's BackendWithCompilerDemo,
    sin) followed by CPU kernels; returns it, its input and PyTorch's output."""
    import executorch.exir.backend.test.backend_with_compiler_demo  # noqa: F401  (registers the backend)
    from executorch.exir.backend.backend_api import to_backend
    from executorch.exir.backend.compile_spec_schema import CompileSpec

    torch.manual_seed(3)
    x = torch.randn(2, 3)
    edge = to_edge(torch.export.export(_Sin(), (x,)))
    lowered = to_backend("BackendWithCompilerDemo", edge.exported_program(), [CompileSpec("max_value", bytes([4]))])
    model = _Delegated(lowered)
    program = to_edge(torch.export.export(model, (x,)), compile_config=EdgeCompileConfig(_check_ir_validity=False))
    return program.to_executorch().buffer, x, torch.relu(torch.sin(x)) + x


def main(argv: List[str]) -> None:
    del argv
    if FLAGS.list:
        print("\n".join(PROGRAMS))
        return
    os.makedirs(FLAGS.out_dir, exist_ok=True)
    for name in list(PROGRAMS) + list(REFUSED) + list(EAGER):
        pte, inputs = build(name)
        with open(os.path.join(FLAGS.out_dir, name + ".pte"), "wb") as f:
            f.write(pte)
        with open(os.path.join(FLAGS.out_dir, name + ".tensors"), "wb") as f:
            f.write(tensor_file(list(inputs), io_dim_orders(pte)[0]))
        if name in EAGER:
            with torch.no_grad():
                expected = EAGER[name][0]()(*inputs)
            with open(os.path.join(FLAGS.out_dir, name + ".expected.tensors"), "wb") as f:
                f.write(tensor_file([expected], io_dim_orders(pte)[1]))
        if name == "channels_last_f32":
            with open(os.path.join(FLAGS.out_dir, "mixed_dim_order.pte"), "wb") as f:
                f.write(mixed_dim_order(pte))
        if name == "conv_net_f32":
            pte_demo, x, expected = delegate_demo()
            with open(os.path.join(FLAGS.out_dir, "delegate_demo.pte"), "wb") as f:
                f.write(pte_demo)
            with open(os.path.join(FLAGS.out_dir, "delegate_demo.tensors"), "wb") as f:
                f.write(tensor_file([x]))
            with open(os.path.join(FLAGS.out_dir, "delegate_demo.expected.tensors"), "wb") as f:
                f.write(tensor_file([expected]))
            for broken, data in broken_variants(pte).items():
                with open(os.path.join(FLAGS.out_dir, broken + ".pte"), "wb") as f:
                    f.write(data)


if __name__ == "__main__":
    app.run(main)
