"""Writes the cortex_m:: kernel cases: each operator's arguments over shapes,
strides, paddings, dilations, zero points, per-channel scales and
activation limits, with the output ExecuTorch's Python reference of the
operator (executorch/backends/cortex_m/ops/operators.py, through
torch.ops.cortex_m) computes for them, and argument sets the kernels must
refuse. kernel_cases_test.cc runs every case through the registration's
unboxing wrappers and compares the bytes.

    gen_cases --out=cases.bin

File format (little-endian): b"CMKC", u32 version, u32 case count; per case
str operator, str label, u8 expect (0: the output, 1: an error, 2: an error
on a CPU with Helium, the output elsewhere), u32 value
count, the values, u8 ties (1: followed by u32 count + one byte per output
byte, 1 where the exact result is a tie the reference breaks in float and
the kernel may differ from it by one step). str: u16 length + bytes. Value: u8 tag, then
0 None | 1 i64 | 2 f64 | 3 u8 bool | 5 u32 count + i64s |
4 tensor: u8 dtype (ExecuTorch ScalarType), u8 rank, i32 sizes, u8 dim
order, u8 is_out, u32 byte count, the bytes in memory order (for the out
tensor: the expected bytes).
"""

from __future__ import annotations

import math
import random
import struct
from typing import Any, Callable, List, Optional, Sequence, Tuple

# The passes package first: it imports the operators (registering
# torch.ops.cortex_m) before the modules that look them up; importing the
# operators first is circular in executorch 1.5.1.
import executorch.backends.cortex_m.passes  # noqa: F401
import torch
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("out", None, "Output case file.")
flags.DEFINE_integer("seed", 30, "Random seed: the cases are a pure function of it.")

_VERSION = 1
_SCALAR_TYPES = {torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4, torch.float32: 6}
# What a case expects (the u8 after its label).
EXPECT_OUTPUT = 0
EXPECT_ERROR = 1
EXPECT_ERROR_ON_HELIUM = 2  # an error where the CPU has Helium, else the output
CL = torch.channels_last
CF = torch.contiguous_format


class Case:
    """One kernel call: `args` go to the kernel; the reference computes the
    expected output from `reference_args` (the same unless given)."""

    def __init__(
        self,
        op: str,
        label: str,
        args: Sequence[Any],
        out_format: torch.memory_format = CF,
        expect_error: bool = False,
        out: Optional[torch.Tensor] = None,
        reference_args: Optional[Sequence[Any]] = None,
        ties: Optional[Callable[[], torch.Tensor]] = None,
        expect: Optional[int] = None,
    ):
        self.op, self.label, self.args, self.ties = op, label, list(args), ties
        self.out_format, self.expect_error, self.out = out_format, expect_error, out
        self.expect = expect if expect is not None else EXPECT_ERROR if expect_error else EXPECT_OUTPUT
        self.reference_args = list(reference_args) if reference_args is not None else self.args


def _str(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<H", len(data)) + data


def _tensor(t: torch.Tensor, is_out: bool) -> bytes:
    order = list(t.dim_order())
    memory = t.permute(order).contiguous() if t.dim() else t.contiguous()
    data = memory.numpy().tobytes()
    return (
        struct.pack("<BBB", 4, _SCALAR_TYPES[t.dtype], t.dim())
        + struct.pack(f"<{t.dim()}i", *t.shape)
        + bytes(order)
        + struct.pack("<BI", int(is_out), len(data))
        + data
    )


def _value(v: Any) -> bytes:
    if v is None:
        return b"\0"
    if isinstance(v, torch.Tensor):
        return _tensor(v, False)
    if isinstance(v, torch.dtype):
        return struct.pack("<Bq", 1, _SCALAR_TYPES[v])
    if isinstance(v, bool):
        return struct.pack("<BB", 3, int(v))
    if isinstance(v, int):
        return struct.pack("<Bq", 1, v)
    if isinstance(v, float):
        return struct.pack("<Bd", 2, v)
    if isinstance(v, (list, tuple)):
        return struct.pack("<BI", 5, len(v)) + struct.pack(f"<{len(v)}q", *v)
    raise TypeError(f"no encoding for {type(v).__name__}")


def encode(case: Case) -> bytes:
    functional = getattr(torch.ops.cortex_m, case.op.split("::")[1].split(".")[0]).default
    if case.out is not None:  # an out tensor of the caller's making (error cases)
        out = case.out
    elif case.expect_error:
        raise ValueError(f"{case.label}: an error case needs its out tensor")
    else:
        result = functional(*case.reference_args)
        out = result.contiguous(memory_format=case.out_format) if case.out_format == CL else result.contiguous()
    values = [_value(a) for a in case.args] + [_tensor(out, True)]
    ties = b"\0"
    if case.ties is not None:
        mask = case.ties().contiguous(memory_format=case.out_format) if case.out_format == CL else case.ties()
        order = list(mask.dim_order())
        data = mask.permute(order).contiguous().to(torch.uint8).numpy().tobytes()
        ties = struct.pack("<BI", 1, len(data)) + data
    return _str(case.op) + _str(case.label) + struct.pack("<BI", case.expect, len(values)) + b"".join(values) + ties


# ---------------------------------------------------------------- helpers


def multiplier_shift(real: float) -> Tuple[int, int]:
    """real = multiplier * 2^(shift - 31), multiplier in [2^30, 2^31)."""
    mantissa, exponent = math.frexp(real)
    multiplier = round(mantissa * (1 << 31))
    if multiplier == 1 << 31:
        multiplier, exponent = multiplier // 2, exponent + 1
    return multiplier, exponent


def int8(rng: random.Random, shape: Sequence[int], fmt: torch.memory_format = CF) -> torch.Tensor:
    g = torch.Generator().manual_seed(rng.randrange(1 << 30))
    t = torch.randint(-128, 128, tuple(shape), dtype=torch.int8, generator=g)
    return t.contiguous(memory_format=fmt) if len(shape) == 4 else t


def activation(rng: random.Random) -> Tuple[int, int]:
    return rng.choice([(-128, 127), (-128, 127), (rng.randint(-128, -20), rng.randint(20, 127)), (-5, 127)])


def per_channel(rng: random.Random, channels: int, accumulated: int) -> Tuple[torch.Tensor, torch.Tensor]:
    """Multipliers and shifts that bring sums of `accumulated` products back
    to int8's range, each channel its own scale."""
    pairs = [
        multiplier_shift(rng.uniform(0.3, 3.0) / (128.0 * math.sqrt(max(accumulated, 1)))) for _ in range(channels)
    ]
    return (
        torch.tensor([m for m, _ in pairs], dtype=torch.int32),
        torch.tensor([s for _, s in pairs], dtype=torch.int32),
    )


def bias(rng: random.Random, channels: int) -> Optional[torch.Tensor]:
    if rng.random() < 0.2:
        return None
    g = torch.Generator().manual_seed(rng.randrange(1 << 30))
    return torch.randint(-3000, 3000, (channels,), dtype=torch.int32, generator=g)


def scratch() -> torch.Tensor:
    """A scratch argument for the operators whose kernels need none."""
    return torch.zeros(16, dtype=torch.uint8)


def conv_scratch(
    nhwc: Sequence[int], weight: Sequence[int], out_hw: Sequence[int], args: Sequence[Any]
) -> torch.Tensor:
    """The scratch ExecuTorch's passes give a quantized_conv2d lowered for the
    Cortex-M55 (passes/scratch_buffer_sizes.py: CMSIS-NN's MVE buffer size
    through the wheel's _cmsis_nn), from the case's `args` (stride, padding,
    dilation, offsets and limits at the schema's positions)."""
    from executorch.backends.cortex_m.library import cmsis_nn

    n, h, w, cin = nhwc
    size = cmsis_nn.convolve_wrapper_buffer_size(
        cmsis_nn.Backend.MVE,
        cmsis_nn.DataType.A8W8,
        input_nhwc=[n, h, w, cin],
        filter_nhwc=list(weight),
        output_nhwc=[n, out_hw[0], out_hw[1], weight[0]],
        padding_hw=list(args[4]),
        stride_hw=list(args[3]),
        dilation_hw=list(args[5]),
        input_offset=args[6],
        output_offset=args[7],
        activation_min=args[10],
        activation_max=args[11],
    )
    return torch.zeros(int(size), dtype=torch.uint8)


def conv_out_hw(h: int, w: int, k: Sequence[int], s: Sequence[int], p: Sequence[int], d: Sequence[int]) -> List[int]:
    return [(h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1, (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1]


def undilated(weight: torch.Tensor, dh: int, dw: int) -> torch.Tensor:
    """An OHWI (or 1HWO) kernel with dilation made explicit: zeros between
    its taps. The reference's int32 conv2d has no dilated form in torch
    ("slow_conv_dilated not implemented for Int"), so dilated cases give it
    this kernel with dilation 1, the same sums exactly."""
    o, kh, kw, i = weight.shape
    out = torch.zeros(o, dh * (kh - 1) + 1, dw * (kw - 1) + 1, i, dtype=weight.dtype)
    out[:, ::dh, ::dw, :] = weight
    return out


def reference_conv_args(args: List[Any], weight_index: int, dilation_index: int) -> List[Any]:
    dh, dw = args[dilation_index]
    if (dh, dw) == (1, 1):
        return args
    ref = list(args)
    ref[weight_index] = undilated(args[weight_index], dh, dw)
    ref[dilation_index] = [1, 1]
    return ref


# ---------------------------------------------------------------- cases


def conv_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(60):
        nhwc = i % 3 == 2
        groups = rng.choice([1, 1, 1, 2])
        cin = rng.randint(1, 6) * groups
        cout = rng.randint(1, 5) * groups
        kh, kw = rng.choice([(1, 1), (3, 3), (1, 3), (2, 2), (5, 5)])
        sh, sw = rng.choice([1, 2]), rng.choice([1, 2])
        ph, pw = rng.randint(0, kh // 2 + 1), rng.randint(0, kw // 2)
        dh, dw = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
        h, w = rng.randint(max(1, dh * (kh - 1) + 1 - 2 * ph), 9), rng.randint(max(1, dw * (kw - 1) + 1 - 2 * pw), 9)
        n = rng.choice([1, 1, 2])
        x = int8(rng, (n, cin, h, w), CL)
        if nhwc:
            x = x.permute(0, 2, 3, 1).contiguous()
        weight = int8(rng, (cout, kh, kw, cin // groups))
        mults, shifts = per_channel(rng, cout, kh * kw * cin // groups)
        lo, hi = activation(rng)
        args = [
            x,
            weight,
            bias(rng, cout),
            [sh, sw],
            [ph, pw],
            [dh, dw],
            rng.randint(-127, 128),
            rng.randint(-128, 127),
            mults,
            shifts,
            lo,
            hi,
        ]
        out_hw = conv_out_hw(h, w, (kh, kw), (sh, sw), (ph, pw), (dh, dw))
        args.append(conv_scratch((n, h, w, cin), weight.shape, out_hw, args))
        op = "cortex_m::quantized_conv2d_nhwc.out" if nhwc else "cortex_m::quantized_conv2d.out"
        cases.append(
            Case(
                op,
                f"conv {i}: {n}x{cin}x{h}x{w} k{kh}x{kw} s{sh}{sw} p{ph}{pw} d{dh}{dw} g{groups}",
                args,
                CF if nhwc else CL,
                reference_args=reference_conv_args(args, 1, 5),
            )
        )
    # A 1x1 convolution on a contiguous (not channels-last) input.
    x = int8(rng, (1, 8, 5, 5))
    m, s = per_channel(rng, 4, 8)
    cases.append(
        Case(
            "cortex_m::quantized_conv2d.out",
            "conv 1x1 contiguous input",
            [x, int8(rng, (4, 1, 1, 8)), None, [1, 1], [0, 0], [1, 1], 3, -2, m, s, -128, 127, scratch()],
            CF,
        )
    )
    # Refused where the Helium convolution serves it (it gathers this 3x3x4
    # patch into an im2col row of 36 bytes of the scratch): a scratch of 35
    # bytes; computed elsewhere (plain C and DSP need none).
    x = int8(rng, (1, 4, 6, 6), CL)
    w = int8(rng, (2, 3, 3, 4))
    m, s = per_channel(rng, 2, 36)
    small = [x, w, None, [1, 1], [1, 1], [1, 1], 3, 0, m, s, -128, 127, torch.zeros(35, dtype=torch.uint8)]
    cases.append(
        Case(
            "cortex_m::quantized_conv2d.out",
            "conv refused on Helium: scratch of 35 bytes for a 36-byte patch",
            small,
            CL,
            expect=EXPECT_ERROR_ON_HELIUM,
        )
    )
    # Refused: out of the wrong size, a shift outside [-31, 30], too few multipliers.
    good = [x, w, None, [1, 1], [1, 1], [1, 1], 0, 0, m, s, -128, 127, scratch()]
    cases.append(
        Case(
            "cortex_m::quantized_conv2d.out",
            "conv refused: out 5x6 for a 6x6 result",
            good,
            expect_error=True,
            out=torch.zeros(1, 2, 5, 6, dtype=torch.int8),
        )
    )
    bad = list(good)
    bad[9] = torch.tensor([0, 40], dtype=torch.int32)
    cases.append(
        Case(
            "cortex_m::quantized_conv2d.out",
            "conv refused: shift 40",
            bad,
            expect_error=True,
            out=torch.zeros(1, 2, 6, 6, dtype=torch.int8),
        )
    )
    bad = list(good)
    bad[8] = m[:1].clone()
    cases.append(
        Case(
            "cortex_m::quantized_conv2d.out",
            "conv refused: one multiplier for two channels",
            bad,
            expect_error=True,
            out=torch.zeros(1, 2, 6, 6, dtype=torch.int8),
        )
    )
    return cases


def depthwise_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(50):
        nhwc = i % 3 == 2
        cin = rng.randint(1, 8)
        dm = rng.choice([1, 1, 2, 3])
        cout = cin * dm
        kh, kw = rng.choice([(3, 3), (3, 3), (5, 5), (1, 1), (2, 3)])
        sh, sw = rng.choice([1, 2]), rng.choice([1, 2])
        ph, pw = rng.randint(0, kh // 2 + 1), rng.randint(0, kw // 2)
        dh, dw = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
        h, w = rng.randint(max(1, dh * (kh - 1) + 1 - 2 * ph), 10), rng.randint(max(1, dw * (kw - 1) + 1 - 2 * pw), 10)
        x = int8(rng, (rng.choice([1, 2]), cin, h, w), CL)
        if nhwc:
            x = x.permute(0, 2, 3, 1).contiguous()
        mults, shifts = per_channel(rng, cout, kh * kw)
        lo, hi = activation(rng)
        args = [
            x,
            int8(rng, (1, kh, kw, cout)),
            bias(rng, cout),
            [sh, sw],
            [ph, pw],
            [dh, dw],
            dm,
            rng.randint(-127, 128),
            rng.randint(-128, 127),
            mults,
            shifts,
            lo,
            hi,
            scratch(),
        ]
        op = "cortex_m::quantized_depthwise_conv2d_nhwc.out" if nhwc else "cortex_m::quantized_depthwise_conv2d.out"
        cases.append(
            Case(
                op,
                f"depthwise {i}: c{cin} m{dm} {h}x{w} k{kh}x{kw} s{sh}{sw} p{ph}{pw} d{dh}{dw}",
                args,
                CF if nhwc else CL,
                reference_args=reference_conv_args(args, 1, 5),
            )
        )
    x = int8(rng, (1, 4, 6, 6), CL)
    m, s = per_channel(rng, 8, 9)
    cases.append(
        Case(
            "cortex_m::quantized_depthwise_conv2d.out",
            "depthwise refused: depth_multiplier 3 for 4->8",
            [x, int8(rng, (1, 3, 3, 8)), None, [1, 1], [1, 1], [1, 1], 3, 0, 0, m, s, -128, 127, scratch()],
            expect_error=True,
            out=torch.zeros(1, 8, 6, 6, dtype=torch.int8),
        )
    )
    return cases


def transpose_conv_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(30):
        nhwc = i % 3 == 2
        # Small channel counts and kernels: the reference accumulates in
        # float32, exact only while the sums stay below 2^24.
        cin, cout = rng.randint(1, 4), rng.randint(1, 4)
        kh, kw = rng.choice([(2, 2), (3, 3), (1, 1), (4, 4)])
        sh, sw = rng.choice([1, 2, 3]), rng.choice([1, 2])
        ph, pw = rng.randint(0, kh - 1), rng.randint(0, kw - 1)
        dh, dw = rng.choice([1, 1, 2]), 1
        oph = rng.randint(0, max(sh, dh) - 1)
        opw = rng.randint(0, max(sw, dw) - 1)
        h, w = rng.randint(1, 6), rng.randint(1, 6)
        if (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1 <= 0 or (w - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1 <= 0:
            continue
        x = int8(rng, (1, cin, h, w), CL)
        if nhwc:
            x = x.permute(0, 2, 3, 1).contiguous()
        mults, shifts = per_channel(rng, cout, kh * kw * cin)
        lo, hi = activation(rng)
        args = [
            x,
            int8(rng, (cout, kh, kw, cin)),
            bias(rng, cout),
            [sh, sw],
            [ph, pw],
            [oph, opw],
            [dh, dw],
            rng.randint(-127, 128),
            rng.randint(-128, 127),
            mults,
            shifts,
            lo,
            hi,
            scratch(),
            scratch(),
        ]
        op = "cortex_m::quantized_transpose_conv2d_nhwc.out" if nhwc else "cortex_m::quantized_transpose_conv2d.out"
        cases.append(
            Case(
                op,
                f"transpose conv {i}: c{cin}->{cout} {h}x{w} k{kh}x{kw} s{sh}{sw} p{ph}{pw} op{oph}{opw} d{dh}{dw}",
                args,
                CF if nhwc else CL,
            )
        )
    return cases


def linear_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(30):
        k, n = rng.randint(1, 70), rng.randint(1, 20)
        lead = rng.choice([(1,), (3,), (2, 3)])
        x = int8(rng, (*lead, k))
        w = int8(rng, (n, k))
        in_off, w_off = rng.randint(-127, 128), rng.choice([0, 0, rng.randint(-20, 20)])
        b = bias(rng, n)
        kernel_sum = None
        if i % 2 == 1:  # the Helium form: bias and input offset folded into kernel_sum
            kernel_sum = ((w.to(torch.int32) + w_off).sum(dim=1) * in_off + (b if b is not None else 0)).to(torch.int32)
            b = None
        m, s = multiplier_shift(rng.uniform(0.3, 3.0) / (128.0 * math.sqrt(k)))
        lo, hi = activation(rng)
        args = [x, w, b, kernel_sum, in_off, w_off, rng.randint(-128, 127), [m], [s], hi, lo]
        cases.append(
            Case(
                "cortex_m::quantized_linear.out",
                f"linear {i}: {lead}x{k} -> {n}, {'kernel_sum' if kernel_sum is not None else 'bias'}",
                args,
            )
        )
    return cases


def batch_matmul_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(20):
        b, m, k, n = rng.randint(1, 3), rng.randint(1, 7), rng.randint(1, 64), rng.randint(1, 7)
        mult, shift = multiplier_shift(rng.uniform(0.3, 3.0) / (128.0 * math.sqrt(k)))
        args = [
            int8(rng, (b, m, k)),
            rng.randint(-127, 128),
            int8(rng, (b, n, k)),
            rng.randint(-127, 128),
            rng.randint(-128, 127),
            mult,
            shift,
            scratch(),
        ]
        cases.append(Case("cortex_m::quantized_batch_matmul.out", f"batch matmul {i}: {b}x{m}x{k} @ {n}", args))
    return cases


def elementwise_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(40):
        shape = rng.choice([(1, 8, 5, 5), (2, 3, 4, 7), (1, 16, 1, 1), (1, 1, 6, 6)])
        broadcast = i % 4 == 3
        a = int8(rng, shape, CL)
        b = int8(rng, (1, shape[1], 1, 1), CL) if broadcast else int8(rng, shape, CL)
        if i % 8 == 7:
            a, b = b, a
        zps = [rng.randint(-128, 127) for _ in range(3)]
        sa, sb, so = (rng.uniform(0.005, 0.1) for _ in range(3))
        # The multipliers the passes derive: each input's scale over twice the
        # larger one, the output's 2 * max / (2^20 * out scale).
        big = 2 * max(sa, sb)
        am, ash = multiplier_shift(sa / big)
        bm, bsh = multiplier_shift(sb / big)
        om, osh = multiplier_shift(big / ((1 << 20) * so))
        lo, hi = activation(rng)
        cases.append(
            Case(
                "cortex_m::quantized_add.out",
                f"add {i}: {shape}{' per-channel' if broadcast else ''}",
                [a, zps[0], am, ash, b, zps[1], bm, bsh, zps[2], om, osh, lo, hi],
                CL,
            )
        )
        mm, ms = multiplier_shift(sa * sb / so)
        cases.append(
            Case(
                "cortex_m::quantized_mul.out",
                f"mul {i}: {shape}{' per-channel' if broadcast else ''}",
                [a, zps[0], b, zps[1], zps[2], mm, ms],
                CL,
            )
        )
    for i, zp in enumerate((-221, 300, -32768)):
        # Operand zero points outside int8, as ExecuTorch's passes fold a
        # constant into one (hardswish: -221); the output's stays int8.
        shape = (1, 4, 3, 3)
        sa, sb, so = (rng.uniform(0.005, 0.1) for _ in range(3))
        mm, ms = multiplier_shift(sa * sb / so)
        args = [int8(rng, shape, CL), rng.randint(-128, 127), int8(rng, shape, CL), zp, rng.randint(-128, 127), mm, ms]
        cases.append(Case("cortex_m::quantized_mul.out", f"mul offset {i}: other zero point {zp}", args, CL))
    for i in range(10):
        shape = rng.choice([(4, 9), (1, 3, 5, 5), (17,)])
        for dtype in (torch.int8, torch.int16):
            info = torch.iinfo(dtype)
            g = torch.Generator().manual_seed(rng.randrange(1 << 30))
            a = torch.randint(info.min, info.max + 1, shape, dtype=dtype, generator=g)
            b = torch.randint(info.min, info.max + 1, shape, dtype=dtype, generator=g)
            zb = rng.randint(-128, 127)
            b.view(-1)[:2] = zb  # a divisor of zero
            cases.append(
                Case(
                    "cortex_m::quantized_div.out",
                    f"div {i} {dtype}: {shape}",
                    [a, rng.randint(-128, 127), b, zb, rng.randint(-128, 127), rng.uniform(1.0, 200.0)],
                )
            )
    lut = torch.tensor(
        [max(-128, min(127, round(127 * math.tanh((v) / 32.0)))) for v in range(-128, 128)], dtype=torch.int8
    )
    for i, shape in enumerate([(1, 8, 4, 4), (33,), (2, 3, 5)]):
        x = int8(rng, shape, CL if len(shape) == 4 else CF)
        cases.append(
            Case(
                "cortex_m::quantized_activation.out",
                f"activation {i}: {shape}",
                [x, lut],
                CL if len(shape) == 4 else CF,
            )
        )
    cases.append(
        Case(
            "cortex_m::quantized_activation.out",
            "activation refused: a 255-entry lut",
            [int8(rng, (9,)), lut[:255].clone()],
            expect_error=True,
            out=torch.zeros(9, dtype=torch.int8),
        )
    )
    for i in range(6):
        a = int8(rng, (1, 4, 3, 3), CL)
        other = int8(rng, (1,)) if i % 2 == 0 else int8(rng, (1, 4, 3, 3), CL)
        for name in ("minimum", "maximum"):
            cases.append(Case(f"cortex_m::{name}.out", f"{name} {i}", [a, other], CL))
    return cases


def softmax_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(20):
        shape = rng.choice([(1, 10), (3, 17), (2, 4, 6), (1, 1000)])
        dim = rng.choice([-1, len(shape) - 1] + ([0] if i % 5 == 4 else []))
        m, s = multiplier_shift(rng.uniform(0.02, 0.3) * (1 << (31 - 5)) / (1 << 31) * (1 << 31) / (1 << 26))
        cases.append(
            Case(
                "cortex_m::softmax.out",
                f"softmax {i}: {shape} dim {dim}",
                [int8(rng, shape), dim, rng.randint(-128, 127), -128, m, s, -128],
            )
        )
    return cases


def layout_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i, (shape, perm) in enumerate(
        [
            ((2, 3, 4, 5), [0, 2, 3, 1]),
            ((2, 3, 4, 5), [0, 3, 1, 2]),
            ((3, 7), [1, 0]),
            ((2, 3, 4), [2, 0, 1]),
            ((1, 8, 1, 1), [0, 2, 3, 1]),
        ]
    ):
        cases.append(Case("cortex_m::transpose.out", f"transpose {i}: {shape} {perm}", [int8(rng, shape), perm]))
    x = int8(rng, (1, 5, 3, 4), CL)
    cases.append(Case("cortex_m::transpose.out", "transpose of a channels-last input", [x, [0, 2, 3, 1]]))
    for i in range(12):
        rank = rng.choice([2, 3, 4, 4])
        shape = tuple(rng.randint(1, 5) for _ in range(rank))
        fmt = CL if rank == 4 and i % 2 == 0 else CF
        x = int8(rng, shape, fmt)
        pre = [rng.randint(0, 2) for _ in range(4)]
        post = [rng.randint(0, 2) for _ in range(4)]
        cases.append(
            Case(
                "cortex_m::pad.out",
                f"pad {i}: {shape} {'channels-last' if fmt == CL else ''}",
                [x, pre, post, rng.randint(-128, 127)],
                fmt,
            )
        )
    return cases


def avg_pool_ties(
    x: torch.Tensor, kernel: List[int], stride: List[int], padding: List[int], ceil: bool, zp: int, nhwc: bool
) -> Callable[[], torch.Tensor]:
    """Where the mean of (q - zero point) over a window is exactly k + 1/2.
    The reference rounds (q - zp) * scale averaged in float32 and divided by
    the scale, so at those ties float error decides which way it goes; the
    kernel rounds the exact mean half to even. torch's own avg_pool2d in
    float64 finds them (|sum| < 2^14 and count <= 49: exact to 2^-30)."""

    def mask() -> torch.Tensor:
        nchw = x.permute(0, 3, 1, 2) if nhwc else x
        mean = torch.nn.functional.avg_pool2d(
            (nchw.to(torch.float64) - zp), kernel, stride, padding, ceil, count_include_pad=False
        )
        twice = mean * 2
        tie = (twice == torch.round(twice)) & (torch.remainder(twice, 2) == 1)
        return tie.permute(0, 2, 3, 1) if nhwc else tie

    return mask


def pool_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(30):
        nhwc = i % 3 == 2
        kh, kw = rng.choice([(2, 2), (3, 3), (7, 7), (1, 2)])
        sh, sw = rng.choice([1, 2]), rng.choice([1, 2])
        ph, pw = rng.randint(0, kh // 2), rng.randint(0, kw // 2)
        h, w = rng.randint(kh, 10), rng.randint(kw, 10)
        x = int8(rng, (rng.choice([1, 2]), rng.randint(1, 6), h, w), CL)
        if nhwc:
            x = x.permute(0, 2, 3, 1).contiguous()
        zp = rng.randint(-128, 127)
        m, s = multiplier_shift(rng.uniform(0.01, 0.2))
        ceil = i % 4 == 1
        op = "cortex_m::quantized_avg_pool2d_nhwc.out" if nhwc else "cortex_m::quantized_avg_pool2d.out"
        cases.append(
            Case(
                op,
                f"avg pool {i}: {tuple(x.shape)} k{kh}x{kw} s{sh}{sw} p{ph}{pw}{' ceil' if ceil else ''}",
                [x, [kh, kw], [sh, sw], [ph, pw], ceil, zp, m, s, scratch()],
                CF if nhwc else CL,
                ties=avg_pool_ties(x, [kh, kw], [sh, sw], [ph, pw], ceil, zp, nhwc),
            )
        )
        lo, hi = activation(rng)
        op = "cortex_m::quantized_max_pool2d_nhwc.out" if nhwc else "cortex_m::quantized_max_pool2d.out"
        cases.append(
            Case(
                op,
                f"max pool {i}: {tuple(x.shape)} k{kh}x{kw} s{sh}{sw} p{ph}{pw}",
                [x, [kh, kw], [sh, sw], [ph, pw], [1, 1], False, zp, zp, lo, hi],
                CF if nhwc else CL,
            )
        )
    x = int8(rng, (1, 2, 6, 6), CL)
    cases.append(
        Case(
            "cortex_m::quantized_max_pool2d.out",
            "max pool refused: dilation 2",
            [x, [2, 2], [2, 2], [0, 0], [2, 2], False, 0, 0, -128, 127],
            expect_error=True,
            out=torch.zeros(1, 2, 2, 2, dtype=torch.int8),
        )
    )
    return cases


def quantize_cases(rng: random.Random) -> List[Case]:
    cases = []
    for i in range(6):
        g = torch.Generator().manual_seed(rng.randrange(1 << 30))
        x = (torch.randn(1, 3, 4, 5, generator=g) * 3).contiguous(memory_format=CL)
        scale, zp = rng.uniform(0.01, 0.1), rng.randint(-128, 127)
        cases.append(
            Case("cortex_m::quantize_per_tensor.out", f"quantize {i}", [x, scale, zp, -128, 127, torch.int8], CL)
        )
        q = int8(rng, (1, 3, 4, 5), CL)
        cases.append(
            Case("cortex_m::dequantize_per_tensor.out", f"dequantize {i}", [q, scale, zp, -128, 127, torch.int8], CL)
        )
    return cases


FAMILIES: List[Callable[[random.Random], List[Case]]] = [
    conv_cases,
    depthwise_cases,
    transpose_conv_cases,
    linear_cases,
    batch_matmul_cases,
    elementwise_cases,
    softmax_cases,
    layout_cases,
    pool_cases,
    quantize_cases,
]


def all_cases(seed: int) -> List[Case]:
    rng = random.Random(seed)
    return [case for family in FAMILIES for case in family(rng)]


def main(argv: List[str]) -> None:
    del argv
    cases = all_cases(FLAGS.seed)
    body = b"".join(encode(c) for c in cases)
    with open(FLAGS.out, "wb") as f:
        f.write(b"CMKC" + struct.pack("<II", _VERSION, len(cases)) + body)


if __name__ == "__main__":
    flags.mark_flag_as_required("out")
    app.run(main)
