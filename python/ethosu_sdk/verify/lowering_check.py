"""The lowering check: a delegate's TOSA graph on the TOSA reference model
against PyTorch's quantized graph, tensor by tensor.

The NPU check (verify.py) proves the command stream computes what the TOSA
graph says; this proves the TOSA graph computes what PyTorch's quantized
(convert_pt2e) graph says. The AOT step (aot/lowering_reference.py) stores
each quantize result of the partition's graph on the delegate's inputs and
the TOSA tensor it corresponds to: every delegate output, and the
intermediates whose provenance survives the lowering. The reference model's
tensors come from the NPU check's run (every operator result), so this
costs one comparison per tensor.

PyTorch emulates the integer pipeline in float, so a value may land one
quantization step away from the integer pipeline's rounding: a delegate
output more than one step off is a wrong lowering (TOLERANCE_STEPS, the
bound tests/aot/tosa_numerics_test.py holds every zoo model to). Inside
the graph each side computes a layer from its own previous results, so
those one-step differences propagate and grow a little, layer after layer
(MobileNetV2's drift, measured: at most 4 steps, and at most 1% of a
tensor's elements beyond one step in int8, 7.6% in A16W8; bench/RESULTS.md).
An intermediate tensor diverges when it is beyond what drift explains: more
than DRIFT_MAX_STEPS steps anywhere, or more than DRIFT_FRACTION of its
elements beyond one step; a 16-bit one in sixteenths of an int8 step
(WIDE_DRIFT_SCALE). A dropped clamp or a wrong rescale is far beyond both
(issue 33's ReLU: 68 steps, 47% of the elements).

One approximation is the lowering's by definition: a TOSA TABLE on an int16
input interpolates between 513 entries (ethosu_sdk/tosa_tables.py), so a
16-bit delegate output the TOSA graph computes through one (ExecuTorch's
A16W8 exp, tanh, sigmoid, softmax, rsqrt) is held to
TABLE_TOLERANCE_STEPS (16, a sixteenth of an int8 step, as the drift rule
scales) instead of one step. The allowance follows the TABLE's result
downstream through the graph rather than covering its whole partition: an
output that does not depend on the table keeps one step, and the walk is
one pass over the operators in graph order. Measured: 2 steps for tanh,
softmax and exp; ExecuTorch's A16W8 layer_norm (106 steps, through an
rsqrt table) and a NEGATE without its rescale (5 steps, no table) still
fail.

A 16-bit sum or product of operands that are themselves compared inherits
their differences (`carried`): one step of an int16 producer's output is
several steps of an add or mul result at a finer scale (the pattern sweep's
A16W8 consumers: 2 to 6 steps behind a one-step producer). Such a tensor
may differ by one step plus what its operands' measured differences carry
through it (aot/lowering_reference.py `combines`: a sum adds them, scaled;
a product weighs each by the other's largest magnitude), and never by more
than operands one step off carry (`limit`: what the expected tensor file
allows the same output on the board). An operand whose TOSA tensor is a
delegate output's is measured by that output; one the lowering computes
once for several consumers, by the kept entry with its values
(aot/lowering_reference.py). An operand the check could not compare
carries nothing, and the result is held to one step; so is a consumer
whose operands match PyTorch, and every 8-bit result.

A delegate output that no quantize node made (an integer operator's
result: a shift, a comparison, an int32 gather) has no float emulation to
round: it must equal PyTorch's exactly (`exact`).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from typing import Any, Optional

import numpy as np

from ethosu_sdk import tosa_tables
from ethosu_sdk.quantized_width import clamp_range_bits
from ethosu_sdk.tensors import read_tensor_file
from ethosu_sdk.verify import executorch_faults

# Float emulation against integer rounding: ties and double rounding move a
# value by at most one step (tests/aot/tosa_numerics_test.py's bound too).
TOLERANCE_STEPS = 1
# Drift bounds for intermediates, so rounding drift passes and a lowering
# bug does not: twice MobileNetV2's measured worst in steps (4, int8), and
# a fraction above its A16W8 worst (features.5 on ethos-u85-256: 2.97% of
# the elements beyond one int16 step, at most 3 steps), still a tenth of
# issue 33's dropped ReLU (47%).
DRIFT_MAX_STEPS = 8
DRIFT_FRACTION = 0.05
# A 16-bit intermediate (A16W8) drifts in steps of its own, 2^8 times finer
# than int8's over a similar range, and more of its elements move: measured
# on MobileNetV2 A16W8 on ethos-u85-256, features.6 has 7.6% of its
# elements 2-4 steps off. Its drift is judged in sixteenths of an int8 step
# (16 steps); a dropped clamp is thousands of steps off.
WIDE_DRIFT_SCALE = 16
HALF = "lowering (TOSA vs PyTorch)"
# PyTorch's NCHW tensor as the TOSA graph's NHWC one.
_TO_NHWC = (0, 2, 3, 1)


@dataclasses.dataclass
class LoweredTensor:
    """One PyTorch quantize result against its TOSA tensor."""

    tensor: str  # TOSA
    node: str  # PyTorch (the partition graph's quantize node)
    module: str = ""
    module_type: Optional[str] = None
    op: Optional[str] = None
    source: Optional[str] = None
    output: Optional[int] = None  # delegate output index, if it is one
    bits: int = 8  # its width, from its quantize node's range (quantized_width)
    exact: bool = False  # an integer result, not quantized: no tolerance
    elements: int = 0
    histogram: dict[int, int] = dataclasses.field(default_factory=dict)  # (TOSA - PyTorch) -> count, nonzero only
    note: Optional[str] = None  # why it was not compared
    through_table: bool = False  # a 16-bit output computed through a 16-bit TABLE (tosa_tables.py)
    scale: Optional[float] = None  # of its quantize node
    carried: int = 0  # steps its compared operands' differences carry into it (module docstring)
    output_tensor_of: Optional[int] = None  # its TOSA tensor is this delegate output's (not compared itself)

    @property
    def wide(self) -> bool:
        """A 16- or 32-bit tensor."""
        return self.bits > 8

    @property
    def max_steps(self) -> int:
        return max((abs(d) for d in self.histogram), default=0)

    @property
    def diverges(self) -> bool:
        if self.note is not None or self.max_steps <= self.tolerance:
            return False
        if self.output is not None:
            return True
        drifted = self.elements_beyond(TOLERANCE_STEPS * self.drift_scale)
        return self.max_steps > DRIFT_MAX_STEPS * self.drift_scale or drifted > DRIFT_FRACTION * self.elements

    @property
    def drift_scale(self) -> int:
        """Steps of this tensor per step of the int8 drift bounds."""
        return WIDE_DRIFT_SCALE * tosa_tables.WIDE_STEPS_PER_16_BIT_STEP[self.bits] if self.wide else 1

    @property
    def tolerance(self) -> int:
        """Steps an element may differ: none for an integer (exact) result,
        a 16-bit TABLE's allowance, else one."""
        if self.exact:
            return 0
        own = tosa_tables.table_tolerance_steps(self.bits) if self.through_table else TOLERANCE_STEPS
        return own + self.carried

    def rule(self) -> str:
        """The tolerance in words, as the report and the failure line print it."""
        carried = f" + {self.carried} carried from its operands' differences" if self.carried else ""
        if self.through_table:
            return f"{tosa_tables.table_tolerance_steps(self.bits)} steps: {tosa_tables.TABLE_RULE}{carried}"
        return f"{TOLERANCE_STEPS} step{carried}"

    def elements_beyond(self, steps: int) -> int:
        return sum(c for d, c in self.histogram.items() if abs(d) > steps)

    @property
    def beyond_tolerance(self) -> int:
        return self.elements_beyond(self.tolerance)

    def name(self) -> str:
        """How a user recognises the tensor: module path, type, operator, line."""
        detail = ", ".join(x for x in (self.module_type, self.op) if x)
        if self.source:
            detail += f" at {self.source}"
        what = f"`{self.module or '<model>'}`"
        return f"{what} ({detail})" if detail else what

    def as_json(self) -> dict[str, Any]:
        return dict(
            dataclasses.asdict(self),
            wide=self.wide,
            max_steps=self.max_steps,
            diverges=self.diverges,
            tolerance=self.tolerance,
        )


def _histogram(diff: np.ndarray) -> dict[int, int]:
    values, counts = np.unique(diff[diff != 0], return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts)}


def _difference(tosa: np.ndarray, pytorch: np.ndarray) -> tuple[Optional[np.ndarray], Optional[str]]:
    """TOSA - PyTorch, elementwise, with PyTorch's tensor in the TOSA
    tensor's layout; where both layouts give the same shape, the closer one
    (a divergence shows in both)."""
    tosa = tosa.astype(np.int64)
    pytorch = pytorch.astype(np.int64)
    candidates = []
    if tosa.shape == pytorch.shape:
        candidates.append(tosa - pytorch)
    if pytorch.ndim == 4 and tosa.shape == tuple(pytorch.shape[i] for i in _TO_NHWC):
        candidates.append(tosa - pytorch.transpose(_TO_NHWC))
    if not candidates and tosa.size == pytorch.size and _squeezed(tosa.shape) == _squeezed(pytorch.shape):
        candidates.append(tosa.reshape(-1) - pytorch.reshape(-1))
    if not candidates:
        return None, f"shape {list(pytorch.shape)} (PyTorch) against {list(tosa.shape)} (TOSA)"
    return min(candidates, key=lambda d: (int(np.abs(d).max(initial=0)), int(np.count_nonzero(d)))), None


LAYOUT_NOTE = "the same values in another order: the lowering lays this tensor out otherwise"


def _same_values(tosa: np.ndarray, pytorch: np.ndarray) -> bool:
    """Both tensors hold the same multiset of values."""
    return tosa.size == pytorch.size and bool(
        np.array_equal(np.sort(tosa.astype(np.int64), axis=None), np.sort(pytorch.astype(np.int64), axis=None))
    )


def _decomposition_steps(entries: list[dict[str, Any]]) -> set[int]:
    """Entries inside one source operator's decomposition (a layer norm's
    mean, variance and reciprocal square root, a softmax's exponentials and
    sum), as the AOT step marks them (`step_of`, lowering_reference.py):
    every TOSA tensor of such a lowering descends from the one source
    operator, so no provenance ties a TOSA tensor to one step and the
    mapping would guess by size. Only the operator's result is compared
    (a delegate output always is)."""
    return {i for i, entry in enumerate(entries) if entry.get("step_of") is not None and entry.get("output") is None}


def _squeezed(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(d for d in shape if d != 1)


def _operand_difference(operand: dict[str, Any], compared: dict[str, LoweredTensor]) -> Optional[float]:
    """An operand's largest difference from PyTorch, in float: 0 for a
    delegate input (both sides read the same), None when not compared."""
    if operand.get("node") is None:
        return 0.0
    result = compared.get(operand["node"])
    if result is not None and result.output_tensor_of is not None:
        # Its TOSA tensor is a delegate output's: that output's comparison is its.
        result = next((r for r in compared.values() if r.output == result.output_tensor_of), None)
    if result is None or result.note is not None or result.scale is None or result.exact:
        return None
    return result.max_steps * result.scale


def carried_steps(combines: dict[str, Any], scale: Optional[float], compared: dict[str, LoweredTensor]) -> int:
    """Steps of a 16-bit sum or product (lowering_reference `combines`) that
    its operands' measured differences explain, at most its `limit`; 0 when
    any is unknown."""
    operands = combines.get("operands") or []
    differences = [_operand_difference(o, compared) for o in operands]
    if not scale or not operands or any(d is None for d in differences):
        return 0
    known = [d for d in differences if d is not None]
    if combines.get("kind") == "sum":
        spread = sum(known)
    elif combines.get("kind") == "product" and len(operands) == 2:
        # |a'b' - ab| <= |a' - a| |b| + |a'| |b' - b|, with |a'| <= |a| + |a' - a|.
        (da, db), (ma, mb) = known, (float(o["magnitude"]) for o in operands)
        spread = da * mb + (ma + da) * db
    else:
        return 0
    # A hair below a whole step is that step (float scales), not the next;
    # never beyond what operands one step off carry (`limit`, the AOT step's,
    # which the expected tensor file allows on the board too).
    return min(math.ceil(spread / scale - 1e-6), int(combines.get("limit", 0)))


def compare(
    entries: list[dict[str, Any]],
    pytorch: list[np.ndarray],
    reference: dict[str, np.ndarray],
    output_names: list[str],
    table_tensors: frozenset[str] | set[str] = frozenset(),
) -> list[LoweredTensor]:
    """Each entry (lowering_reference.py) against the reference model's
    tensor; in the partition graph's order, so the first divergence is the
    earliest. `table_tensors`: the TOSA graph's 16- and 32-bit tensors computed
    through a 16-bit TABLE (tosa_tables.wide_table_tensors); a delegate
    output among them gets the TABLE's allowance."""
    if len(entries) != len(pytorch):
        raise ValueError(f"{len(entries)} PyTorch tensor entries for {len(pytorch)} stored tensors")
    inner = _decomposition_steps(entries)
    results = []
    # Each entry by PyTorch node, for the operands of a later sum or product
    # (entries are in graph order: an operand comes before its consumer).
    compared: dict[str, LoweredTensor] = {}
    for index, (entry, values) in enumerate(zip(entries, pytorch)):
        output = entry.get("output")
        name = output_names[output] if output is not None and output < len(output_names) else entry.get("tosa")
        bits = clamp_range_bits(entry.get("qmin"), entry.get("qmax"))
        result = LoweredTensor(
            name or "",
            entry["node"],
            entry.get("module") or "",
            entry.get("module_type"),
            entry.get("op"),
            entry.get("source"),
            output,
            bits=bits,
            through_table=output is not None and bits > 8 and (name or "") in table_tensors,
            exact=bool(entry.get("exact")),
            scale=entry.get("scale"),
        )
        results.append(result)
        compared[result.node] = result
        if index in inner:
            result.note = f"a step inside {entry.get('op')}'s decomposition"
            continue
        if output is None and name in output_names:
            # Provenance put an intermediate on a delegate output's tensor
            # (ExecuTorch folds a convolution's rescale into the sub that
            # reads it: test_sub's dual_conv); that tensor is the output's
            # value, which its own entry compares.
            result.output_tensor_of = output_names.index(name)
            result.note = f"its TOSA tensor is delegate output {result.output_tensor_of}'s"
            continue
        tosa = reference.get(name or "")
        if tosa is None:
            result.note = "no TOSA tensor of this name"
            continue
        if tosa.size == 0:
            result.note = "a type the TOSA reference model cannot export"
            continue
        diff, problem = _difference(np.asarray(tosa), np.asarray(values))
        if diff is None:
            result.note = problem
            continue
        if output is None and diff.any() and _same_values(np.asarray(tosa), np.asarray(values)):
            # A square tensor whose axes the lowering ordered otherwise (an
            # attention's K transposed before or after its reshape: test_
            # multihead_attention [randn_2d]); a delegate output never gets this.
            result.note = LAYOUT_NOTE
            continue
        result.elements = int(diff.size)
        result.histogram = _histogram(diff)
    # After every comparison: an operand may be compared through a delegate
    # output that comes later in graph order.
    for entry, result in zip(entries, results):
        if entry.get("combines"):
            result.carried = carried_steps(entry["combines"], result.scale, compared)
    return results


def check_partition(
    directory: str, entry: dict[str, Any], reference: dict[str, np.ndarray], output_names: list[str]
) -> tuple[list[LoweredTensor], Optional[str]]:
    """The partition's lowering check from its manifest entry; (results,
    why not checked)."""
    if entry.get("pytorch_skipped"):
        return [], entry["pytorch_skipped"]
    if not entry.get("pytorch"):
        return [], "no PyTorch tensors from the AOT step"
    with open(os.path.join(directory, entry["pytorch"])) as f:
        entries = json.load(f)["tensors"]
    stored = [t.data for t in read_tensor_file(os.path.join(directory, entry["pytorch_tensors"]))] if entries else []
    tables: set[str] = set()
    if entry.get("tosa"):
        with open(os.path.join(directory, entry["tosa"]), "rb") as f:
            tables = set(tosa_tables.wide_table_tensors(f.read()))
    return compare(entries, stored, reference, output_names, tables), None


def first_divergence(results: list[LoweredTensor]) -> Optional[LoweredTensor]:
    return next((r for r in results if r.diverges), None)


def describe(result: LoweredTensor, partition: int) -> str:
    """The failure line's detail for a diverging tensor."""
    scale = result.drift_scale
    fault = executorch_faults.known_fault(result.op, result.wide)
    where = f"output {result.output}" if result.output is not None else "tensor"
    if result.exact:
        return (
            f"{HALF}: first diverging tensor {result.name()}, TOSA {where} {result.tensor} "
            f"(partition {partition}): {result.beyond_tolerance} of {result.elements} elements differ from "
            f"PyTorch's graph (an integer result, not quantized, so compared exactly; up to {result.max_steps} off)"
            + (f"; a known ExecuTorch fault: {fault}" if fault else "")
        )
    return (
        f"{HALF}: first diverging tensor {result.name()}, TOSA {where} {result.tensor} "
        f"(partition {partition}): {result.beyond_tolerance} of {result.elements} elements differ from "
        f"PyTorch's quantized graph by more than {result.rule()} (up to {result.max_steps}"
        + (
            ""
            if result.output is not None
            else f"; beyond the drift of earlier layers: over {DRIFT_MAX_STEPS * scale} steps or "
            f"{DRIFT_FRACTION:.0%} of the elements over {TOLERANCE_STEPS * scale}"
        )
        + ")"
        + (f"; a known ExecuTorch fault: {fault}" if fault else "")
    )
