"""Memory planning that lets an operator write its output over its own input
where the kernel's access order makes that safe.

ExecuTorch's greedy planner gives tensors whose lifetimes touch disjoint
memory, so an operator's input and output are never shared even when the
input dies at that operator. For MobileNetV2 that sets the floor: the
112x112x96 expansion and the 56x56x96 stride-2 depthwise output it feeds.

`plan` is a MemoryPlanningPass algorithm (ExecuTorch's
MemoryPlanningAlgorithmSuite runs it beside `greedy` and keeps whichever
needs fewer bytes). It places tensors largest first at the lowest offset
that overlaps no tensor alive at the same time, except that the output of
an operator listed below may overlap its dying input at the offsets the
kernel's access order allows:

- `cortex_m::quantized_depthwise_conv2d[_nhwc]` (channels innermost in both
  tensors, one output per input channel). Invariant of the SDK's kernels
  (cc/kernels/cortex_m/conv_params.h): for each channel, output pixels are
  finished in increasing (n, h, w) order, a pixel's output is written only
  after its own taps of that channel are read, and no byte of another
  channel is written. With the output placed `lead` pixels before the input
  (the same channel at the same offset within a pixel), pixel P's write
  lands on input pixel idx(P) - lead; it is safe when every pixel's taps
  start at or after idx(P) - lead, i.e. lead >= idx(P) - first_tap(P) for
  every output pixel P (`depthwise_lead`). Stride 2, pad 1, 3x3 gives 0 (in
  place); stride 1, pad 1, 3x3 gives one row and one pixel.
- `cortex_m::quantized_add` on operands of one shape and layout: element i
  of both operands is read before element i of out is written, in
  increasing i (add_helium.h), so out may be either dying operand (lead 0).

Offsets only move by whole pixels (so channels stay aligned) and keep the
planner's alignment.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Optional, Sequence

import torch

# executorch.exir.tensor.TensorSpec (untyped for mypy: executorch is skipped).
Spec = Any

# The passes' int8 operators whose kernels document the access order above.
_DEPTHWISE = ("quantized_depthwise_conv2d", "quantized_depthwise_conv2d_nhwc")
_ADD = ("quantized_add",)


@dataclasses.dataclass(frozen=True)
class Overlap:
    """`result` may start `lead_bytes` (or any further multiple of `step`
    bytes) before `source`, at an op where `source` dies."""

    source: Spec
    result: Spec
    lead_bytes: int
    step: int


def _first_tap(o: int, stride: int, pad: int, dilation: int, kernel: int, size: int) -> Optional[int]:
    """The smallest input coordinate that output coordinate `o` reads, or
    None when all its taps are padding."""
    for k in range(kernel):
        i = o * stride - pad + k * dilation
        if 0 <= i < size:
            return i
    return None


def _axis_lead(
    out_size: int, out_step: int, in_size: int, in_step: int, stride: int, pad: int, dilation: int, kernel: int
) -> Optional[int]:
    """max over output coordinates o with a tap inside of o * out_step -
    first_tap(o) * in_step (None: no coordinate reads anything)."""
    best = None
    for o in range(out_size):
        first = _first_tap(o, stride, pad, dilation, kernel, in_size)
        if first is not None:
            value = o * out_step - first * in_step
            best = value if best is None else max(best, value)
    return best


def depthwise_lead(
    in_nhw: Sequence[int],
    out_nhw: Sequence[int],
    kernel: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
) -> int:
    """The fewest pixels the depthwise output must start before its input
    (negative: it may start after), from the invariant in the module
    docstring: max over output pixels of idx(P) - first_tap(P). The pixel
    index splits into batch, row and column terms, each maximised alone."""
    n_in, h_in, w_in = in_nhw
    n_out, h_out, w_out = out_nhw
    rows = _axis_lead(h_out, w_out, h_in, w_in, stride[0], padding[0], dilation[0], kernel[0])
    cols = _axis_lead(w_out, 1, w_in, 1, stride[1], padding[1], dilation[1], kernel[1])
    if rows is None or cols is None:
        return 0  # no pixel reads the input: any placement is safe
    batch = max(n * (h_out * w_out - h_in * w_in) for n in range(max(n_out, 1)) if n in (0, n_out - 1))
    return rows + cols + batch


def _spec(node: object) -> Optional[Spec]:
    spec = getattr(node, "meta", {}).get("spec") if isinstance(node, torch.fx.Node) else None
    return spec if type(spec).__name__ == "TensorSpec" else None


def _channels_last(spec: Spec) -> bool:
    return len(spec.shape) == 4 and list(spec.dim_order) == [0, 2, 3, 1]


def _op_name(node: torch.fx.Node) -> str:
    target = node.target
    name = getattr(target, "_schema", None)
    return name.name.split("::")[-1] if name is not None and name.name.startswith("cortex_m::") else ""


def _depthwise_overlap(node: torch.fx.Node, source: Spec, result: Spec) -> Optional[Overlap]:
    args = node.args
    stride, padding, dilation, multiplier = args[3], args[4], args[5], args[6]
    weight = _spec(args[1])
    if multiplier != 1 or weight is None or not (_channels_last(source) and _channels_last(result)):
        return None
    n, c, h, w = source.shape
    n_out, c_out, h_out, w_out = result.shape
    if c != c_out or source.dtype != result.dtype or n != n_out:
        return None
    kernel = (weight.shape[1], weight.shape[2])  # [1, KH, KW, C]
    lead = depthwise_lead((n, h, w), (n_out, h_out, w_out), kernel, stride, padding, dilation)
    pixel = c * source.dtype.itemsize
    return Overlap(source, result, max(lead, 0) * pixel, pixel)


def _add_overlaps(node: torch.fx.Node, result: Spec) -> list[Overlap]:
    found = []
    for operand in (node.args[0], node.args[4]):
        source = _spec(operand)
        if source is None or source is result:
            continue
        if (
            list(source.shape) == list(result.shape)
            and list(source.dim_order) == list(result.dim_order)
            and source.dtype == result.dtype
        ):
            found.append(Overlap(source, result, 0, result.dtype.itemsize))
    return found


def find_overlaps(
    graph_module: torch.fx.GraphModule, specs: Iterable[Spec], graph_inputs: Iterable[Spec] = ()
) -> list[Overlap]:
    """The (input, output) pairs the kernels allow to overlap: the input
    dies at the op (its lifetime ends at that node, so no later op and no
    graph output reads it) and is not a graph input (the caller's data)."""
    planned = set(specs)
    protected = set(graph_inputs)
    found: list[Overlap] = []
    allocs: dict = {}
    for index, node in enumerate(graph_module.graph.nodes):
        if node.op != "call_function":
            continue
        allocs[node] = index
        name = _op_name(node)
        out = node.kwargs.get("out")
        result = _spec(out)
        # The output's life starts at the op or at its memory.alloc node.
        if not name or result is None or result not in planned or result.lifetime[0] not in (index, allocs.get(out)):
            continue
        if name in _DEPTHWISE:
            source = _spec(node.args[0])
            candidates: list[Optional[Overlap]] = []
            if source is not None:
                candidates.append(_depthwise_overlap(node, source, result))
        elif name in _ADD:
            candidates = list(_add_overlaps(node, result))
        else:
            continue
        for overlap in candidates:
            if (
                overlap is not None
                and overlap.source in planned
                and overlap.source not in protected
                and overlap.source.lifetime[1] == index
            ):
                found.append(overlap)
    return found


def _lives_together(a: Spec, b: Spec) -> bool:
    return not (a.lifetime[1] < b.lifetime[0] or b.lifetime[1] < a.lifetime[0])


def _allowed(offset: int, spec: Spec, other_offset: int, other: Spec, rules: dict) -> bool:
    """Whether `spec` at `offset` may share bytes with `other` at
    `other_offset` under an Overlap rule."""
    rule = rules.get((other, spec)) or rules.get((spec, other))
    if rule is None:
        return False
    result_at, source_at = (offset, other_offset) if rule.result is spec else (other_offset, offset)
    lead = source_at - result_at
    return lead >= rule.lead_bytes and (lead - rule.lead_bytes) % rule.step == 0


def _aligned_lead(rule: Overlap, alignment: int) -> int:
    """The least lead the rule allows that keeps the alignment."""
    for k in range(alignment):
        if (rule.lead_bytes + k * rule.step) % alignment == 0:
            return rule.lead_bytes + k * rule.step
    return rule.lead_bytes + alignment * rule.step  # never reached: step divides a multiple of it


def _place(spec: Spec, placed: list, rules: dict, alignment: int, room: int) -> int:
    """The lowest aligned offset, at least `room`, for `spec` that clashes
    with no placed tensor alive with it, other than as an Overlap allows."""
    size = spec.allocated_memory
    alive = [(at, other) for at, other in placed if _lives_together(spec, other)]
    candidates = {room}
    for at, other in alive:
        candidates.add(at + other.allocated_memory + room)
        rule = rules.get((other, spec)) or rules.get((spec, other))
        if rule is not None:
            lead = _aligned_lead(rule, alignment)
            candidates.add(at - lead if rule.result is spec else at + lead)
    for offset in sorted(c for c in candidates if c >= room and c % alignment == 0):
        if all(
            offset + size <= at or at + other.allocated_memory <= offset or _allowed(offset, spec, at, other, rules)
            for at, other in alive
        ):
            return offset
    raise AssertionError("unreachable: the end of every live tensor is a candidate")


def _assign(specs: list, rules: dict, alignment: int, reserve: bool) -> list:
    """Offsets for `specs` in order. With `reserve`, a dying input whose
    output is not placed yet leaves that output's lead free below it (the
    largest-first order places an input before its equally large output)."""
    by_source = {rule.source: rule for rule in rules.values()}
    placed: list = []
    for spec in specs:
        rule = by_source.get(spec) if reserve else None
        room = 0
        if rule is not None and all(other is not rule.result for _, other in placed):
            room = _aligned_lead(rule, alignment)
        placed.append((_place(spec, placed, rules, alignment, room), spec))
    return placed


def _end(placed: list) -> int:
    return max((at + spec.allocated_memory for at, spec in placed), default=0)


def plan(
    alignment: int, specs: set, graph_module: torch.fx.GraphModule, graph_signature: object, extra_padding: int = 0
) -> Any:
    """A MemoryPlanningAlgorithmSuite algorithm: one buffer (mem_id 1),
    largest tensors first, each at its lowest admissible offset; with and
    without room reserved for leads, the smaller kept."""
    from executorch.exir.memory_planning import MemoryAlgoResult, SpecAllocResult, get_input_specs, greedy

    if getattr(graph_module, "input_mem_buffer_sizes", None) or any(
        spec.storage_base is not None or spec.mem_id not in (None, 1) for spec in specs
    ):
        return greedy(alignment, specs, graph_module, graph_signature, extra_padding)
    for spec in specs:
        spec.realign(alignment)
    rules = {}
    for overlap in find_overlaps(graph_module, specs, get_input_specs(graph_module)):
        rules[(overlap.source, overlap.result)] = overlap
    order = sorted(specs, key=lambda s: (-s.allocated_memory, s.lifetime[0]))
    placed = min((_assign(order, rules, alignment, reserve) for reserve in (False, True)), key=_end)
    result = MemoryAlgoResult({}, [])
    for offset, spec in placed:
        result.spec_dict[spec] = SpecAllocResult(1, 0, offset)
    result.bufsizes = [0, _end(placed) + extra_padding]
    return result


def planning_pass() -> Any:
    """The MemoryPlanningPass for ExecutorchBackendConfig: ExecuTorch's
    greedy and `plan`, the smaller one kept."""
    from executorch.exir.memory_planning import MemoryPlanningAlgorithmSuite, greedy
    from executorch.exir.passes import MemoryPlanningPass

    return MemoryPlanningPass(memory_planning_algo=MemoryPlanningAlgorithmSuite([greedy, plan]))
