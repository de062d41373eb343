"""Writes weight_vectors.h: known weights and the streams Vela 5.1.0's own
encoders make of them (vela_encoders.py), for sim/npu's weight-codec test
to decode and compare with the weights.

    gen_weight_vectors --out=weight_vectors.h
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Dict, Iterable, List, Sequence, Tuple

import numpy as np
import vela_encoders
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("out", None, "Output C++ header.")

SEED = 20240514
INT8_MIN, INT8_MAX = -128, 127
# mlw (SWD) weights are 9-bit sign-folded symbols: zero-point-corrected
# int8 weights span [-255, 255].
SWD_MIN, SWD_MAX = -255, 255
# An SWD slice holds at most 2^15 weights; more make a multi-slice stream.
SWD_SLICE_WEIGHTS = 1 << 15
# FWD header bit 0: raw 8-bit weights; bit 1: 2-bit (not 4-bit) LUT indices.
FWD_RAW_BIT, FWD_SMALL_LUT_BIT = 1, 2
# OFM and IFM microblock depth of ethos-u55-128/256 (Vela's accelerator table).
U55_MICROBLOCK_DEPTH = 8

Encoder = Callable[[Sequence[int]], bytes]
SWD_ENCODERS: Dict[str, Encoder] = {
    "mlw_codec": vela_encoders.swd_python,
    "regor": vela_encoders.swd_regor,
}


@dataclasses.dataclass
class CodecVector:
    name: str  # of the weight set
    fwd: bool
    encoder: str  # "+"-joined when several encoders wrote the same stream
    stream: bytes


@dataclasses.dataclass
class LayoutVector:
    """One U55/U65 operation's kernel and its per-core streams."""

    name: str
    ohwi: np.ndarray
    ofm_block_depth: int
    traversal: str  # U85Traversal enumerator
    dilation: Tuple[int, int]
    streams: List[bytes]


def weight_sets(rng: np.random.Generator) -> Dict[str, List[int]]:
    def uniform(n: int, lo: int, hi: int) -> List[int]:
        return [int(v) for v in rng.integers(lo, hi + 1, size=n)]

    zero_heavy = [v if rng.random() < 0.1 else 0 for v in uniform(2000, INT8_MIN, INT8_MAX)]
    sixteen = [int(v) for v in rng.choice(np.arange(-8, 8) * 3, size=1000)]
    four = [int(v) for v in rng.choice([0, 0, 0, 0, 0, 0, 1, -1, 5], size=1000)]
    return {
        "random_int8": uniform(1000, INT8_MIN, INT8_MAX),
        "zero_heavy": zero_heavy,
        "sixteen_values": sixteen,
        "four_values_zero_heavy": four,
        "all_zero": [0] * 512,
        "single": [-77],
        "full_range": uniform(600, SWD_MIN, SWD_MAX),
        "multi_slice": [v if rng.random() < 0.5 else 0 for v in uniform(SWD_SLICE_WEIGHTS + 1000, INT8_MIN, INT8_MAX)],
    }


def fwd_mode(stream: bytes) -> str:
    if stream[0] & FWD_RAW_BIT:
        return "raw"
    return "lut2" if stream[0] & FWD_SMALL_LUT_BIT else "lut4"


def codec_vectors(sets: Dict[str, List[int]]) -> List[CodecVector]:
    vectors: List[CodecVector] = []
    for name, weights in sets.items():
        swd: Dict[bytes, List[str]] = {}
        for encoder, encode in SWD_ENCODERS.items():
            stream = encode(weights)
            if vela_encoders.swd_decode(stream) != weights:
                raise RuntimeError(f"{encoder} SWD stream of {name} does not round-trip in Vela")
            swd.setdefault(stream, []).append(encoder)
        vectors += [CodecVector(name, False, "+".join(e), stream) for stream, e in swd.items()]
        if all(INT8_MIN <= w <= INT8_MAX for w in weights):
            vectors.append(CodecVector(name, True, "regor", vela_encoders.fwd_regor(weights)))
    # The FWD vectors must cover the three weight encodings.
    modes = {fwd_mode(v.stream) for v in vectors if v.fwd}
    if not {"raw", "lut4", "lut2"} <= modes:
        raise RuntimeError(f"FWD vectors cover only {sorted(modes)}")
    return vectors


def layout_vectors(rng: np.random.Generator) -> List[LayoutVector]:
    """Kernels in Vela's U55 order, on one core and on two (U65-512: core c
    takes OFM channels c, c + 2, ...)."""
    cases = [
        ("conv3x3_depth_first", (16, 3, 3, 20), 16, "kDepthFirst", (1, 1), 1),
        ("conv5x5_part_kernel", (12, 5, 5, 3), 8, "kPartKernelFirst", (1, 1), 1),
        ("depthwise3x3", (24, 3, 3, 1), 16, "kDepthwise", (1, 1), 1),
        ("conv9x9_sub_kernels", (8, 9, 9, 4), 8, "kDepthFirst", (1, 1), 1),
        ("conv3x3_dilation2", (8, 3, 3, 16), 8, "kDepthFirst", (2, 2), 1),
        ("conv1x1_two_cores", (40, 1, 1, 48), 16, "kDepthFirst", (1, 1), 2),
    ]
    vectors: List[LayoutVector] = []
    for name, shape, block, traversal, dilation, cores in cases:
        ohwi = rng.integers(INT8_MIN, INT8_MAX + 1, size=shape)
        streams: List[bytes] = []
        for core in range(cores):
            core_block = (block + cores - 1 - core) // cores
            streams.append(
                vela_encoders.u55_reorder_encode(
                    ohwi[core::cores],
                    core_block,
                    traversal == "kDepthwise",
                    traversal == "kPartKernelFirst",
                    dilation,
                    U55_MICROBLOCK_DEPTH,
                    U55_MICROBLOCK_DEPTH,
                )
            )
        vectors.append(LayoutVector(name, ohwi, block, traversal, dilation, streams))
    return vectors


def c_array(type_name: str, name: str, values: Iterable[int]) -> str:
    items = [str(v) for v in values]
    lines: List[str] = []
    line = "   "
    for item in items:
        if len(line) + len(item) + 2 > 100:
            lines.append(line)
            line = "   "
        line += f" {item},"
    lines.append(line)
    return f"const {type_name} {name}[] = {{\n" + "\n".join(lines) + "\n};\n"


PREAMBLE = """// Generated by sim/tests/npu/weight_vectors/gen_weight_vectors.py from Vela 5.1.0's
// encoders; do not edit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/npu/weights/weight_layout_u85.h"

namespace weight_vectors {

// Weights and the stream a Vela encoder made of them.
struct CodecVector {
  const char* name;
  bool fwd;  // else SWD
  const char* encoder;
  const int16_t* weights;
  size_t count;
  const uint8_t* stream;
  size_t size;
};

// An OHWI kernel and its per-core streams in Vela's U55/U65 order
// (8-deep OFM and IFM microblocks, 8-bit IFM).
struct LayoutVector {
  const char* name;
  int ofm_depth, kernel_h, kernel_w, ifm_depth;
  int ofm_block_depth;
  ethosu_sdk::npu::U85Traversal traversal;
  int dilation_x, dilation_y;
  int cores;
  const int16_t* ohwi;
  const uint8_t* streams[2];
  size_t sizes[2];
};

"""


def render(sets: Dict[str, List[int]], codecs: List[CodecVector], layouts: List[LayoutVector]) -> str:
    out = [PREAMBLE]
    names = list(sets)
    for k, weights in enumerate(sets.values()):
        out.append(c_array("int16_t", f"kWeights{k}", weights))
    for i, v in enumerate(codecs):
        out.append(c_array("uint8_t", f"kCodecStream{i}", v.stream))
    for i, layout in enumerate(layouts):
        out.append(c_array("int16_t", f"kLayoutWeights{i}", layout.ohwi.flatten()))
        for c, stream in enumerate(layout.streams):
            out.append(c_array("uint8_t", f"kLayoutStream{i}_{c}", stream))
    out.append("const CodecVector kCodecVectors[] = {\n")
    for i, v in enumerate(codecs):
        k = names.index(v.name)
        out.append(
            f'    {{"{v.name}", {str(v.fwd).lower()}, "{v.encoder}", kWeights{k}, '
            f"{len(sets[v.name])}, kCodecStream{i}, {len(v.stream)}}},\n"
        )
    out.append("};\n\nconst LayoutVector kLayoutVectors[] = {\n")
    for i, layout in enumerate(layouts):
        o, h, w, d = layout.ohwi.shape
        streams = [f"kLayoutStream{i}_{c}" for c in range(len(layout.streams))] + ["nullptr"]
        sizes = [str(len(s)) for s in layout.streams] + ["0"]
        out.append(
            f'    {{"{layout.name}", {o}, {h}, {w}, {d}, {layout.ofm_block_depth}, '
            f"ethosu_sdk::npu::U85Traversal::{layout.traversal}, {layout.dilation[0]}, "
            f"{layout.dilation[1]}, {len(layout.streams)}, kLayoutWeights{i}, "
            f"{{{streams[0]}, {streams[1]}}}, {{{sizes[0]}, {sizes[1]}}}}},\n"
        )
    out.append("};\n\n}  // namespace weight_vectors\n")
    return "".join(out)


def main(argv: List[str]) -> None:
    del argv
    rng = np.random.default_rng(SEED)
    sets = weight_sets(rng)
    codecs = codec_vectors(sets)
    layouts = layout_vectors(rng)
    with open(FLAGS.out, "w") as f:
        f.write(render(sets, codecs, layouts))


if __name__ == "__main__":
    flags.mark_flag_as_required("out")
    app.run(main)
