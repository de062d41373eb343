"""Stage 4 of compile_model: the reference input and expected outputs in the
program's own terms (integers with --io=int8; the lowered graph's outputs on
a Cortex-M), and their tensor files; each expected output with its
tolerance in quantization steps (output_tolerance.py)."""

from __future__ import annotations

import dataclasses

import torch

from ethosu_sdk.aot import integer_io, layout, lowering_reference, output_tolerance
from ethosu_sdk.aot.stages.stage_lower import Lowered
from ethosu_sdk.aot.stages.stage_quantize import Prepared, QParams
from ethosu_sdk.aot.targets import TargetKind
from ethosu_sdk.tensors import StoredTensor, encode


@dataclasses.dataclass(frozen=True)
class References:
    inputs: tuple[torch.Tensor, ...]
    expected: tuple[torch.Tensor, ...]
    input_qparams: QParams
    output_qparams: QParams
    output_tolerances: tuple[int, ...] = ()  # steps per expected output; empty: one each

    def input_file(self, lowered: Lowered) -> bytes:
        return encode(_stored(self.inputs, self.input_qparams, [i.dim_order for i in lowered.plan.inputs]))

    def expected_file(self, lowered: Lowered) -> bytes:
        stored = _stored(self.expected, self.output_qparams, [o.dim_order for o in lowered.plan.outputs])
        if self.output_tolerances:
            stored = [dataclasses.replace(s, tolerance_steps=t) for s, t in zip(stored, self.output_tolerances)]
        return encode(stored)


def build(prepared: Prepared, lowered: Lowered) -> References:
    expected = lowered.shipped.expected if lowered.shipped.expected is not None else prepared.expected
    folded = lowered.shipped.folded
    if folded is None:
        refs = References(tuple(prepared.inputs), tuple(expected), prepared.input_qparams, prepared.output_qparams)
    else:
        # --io=int8: the float input quantized as the folded operator did; the
        # expected outputs quantized back from the dequantized reference, unless
        # the lowered graph already produced them in int8 (Cortex-M).
        already_quantized = lowered.target.kind is TargetKind.CORTEX_M
        refs = References(
            tuple(integer_io.quantize_all(prepared.inputs, folded.inputs)),
            tuple(expected) if already_quantized else tuple(integer_io.quantize_all(expected, folded.outputs)),
            [(a.scale, a.zero_point) for a in folded.inputs],
            [(a.scale, a.zero_point) for a in folded.outputs],
        )
    tosa_graphs = [p.tosa_flatbuffer for p in lowered.shipped.partitions]
    carried = (
        lowering_reference.output_carry_limits(
            lowered.shipped.edge, tuple(layout.apply(refs.inputs, lowered.input_layout))
        )
        if tosa_graphs
        else None
    )
    tolerances = output_tolerance.output_tolerances(lowered.shipped.edge, tosa_graphs, carried)
    return dataclasses.replace(refs, output_tolerances=tuple(tolerances))


def _stored(
    tensors: tuple[torch.Tensor, ...], qparams: QParams, dim_orders: list[tuple[int, ...]]
) -> list[StoredTensor]:
    """Tensor-file records in the program's memory order (layout.py)."""
    return [
        StoredTensor(layout.in_memory_order(t, order), s, z) for t, (s, z), order in zip(tensors, qparams, dim_orders)
    ]
