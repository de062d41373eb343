"""Layer-by-layer comparison of the NPU model with the TOSA reference model.

Each NPU operation in the trace belongs to the first Vela layer whose
recorded command offset is at or after it (Vela records the offset of a
layer's last NPU operation); consecutive layers that produce
the same tensor (U55 splits wide convolutions by depth) form one layer.
A layer of one operation that wrote the whole tensor is compared as written.
Otherwise (stripes, depth slices, a transpose done in many passes) the
layer's writes are placed by address, byte by byte, into the tensor's arena
placement from Vela's debug database (an int32 tensor Vela copies as int16
halves is read back whole), and the tensor is read back in its layout (NHWC
or NHCWB16). Either way, the result is compared element by element with the
TOSA reference model's tensor of the same name. Where Vela gave its own
tensor a TOSA tensor's name (vela_debug_db), a layer whose OFM elements are
wider than the TOSA tensor's writes Vela's namesake: checked through its
readers, like any tensor Vela made up.
"""

import bisect
import dataclasses
from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from ethosu_sdk.verify.layer_trace import CHAIN_BUFFER, TracedOperation
from ethosu_sdk.verify.vela_debug_db import Layer, TensorPlacement

_ELEMENT_BYTES = {"Int8": 1, "UInt8": 1, "Int16": 2, "Int32": 4}
_MEMORY_TYPES = {"Int8": "<i1", "UInt8": "<u1", "Int16": "<i2", "Int32": "<i4"}

# Why a layer is checked through its readers instead of compared (the
# table here and verify.py's report).
INTERNAL_NOTE = "Vela-internal tensor: checked through the layers that read it"
UNEXPORTED_NOTE = (
    "INT48 accumulators, which the TOSA reference model cannot export: checked through the layers that read them"
)


@dataclasses.dataclass
class LayerResult:
    operator: str
    tensor: str
    command_offset: int
    operations: int  # NPU operations that wrote it
    shape: Tuple[int, ...] = ()
    elements: int = 0
    # (model - reference) -> count, for the elements that differ
    histogram: Dict[int, int] = dataclasses.field(default_factory=dict)
    problem: Optional[str] = None  # set when the layer could not be compared
    internal: bool = False  # a tensor Vela made up: checked through its readers
    # An INT48 accumulator (A16W8), which the reference model cannot
    # export: checked through its readers too.
    unexported: bool = False

    @property
    def differing(self) -> int:
        return sum(self.histogram.values())

    @property
    def exact(self) -> bool:
        return not self.checked_by_readers and self.problem is None and not self.histogram

    @property
    def checked_by_readers(self) -> bool:
        return self.internal or self.unexported

    @property
    def ok(self) -> bool:
        return self.checked_by_readers or self.exact


def _made_by_vela(name: str, reference: Dict[str, np.ndarray]) -> bool:
    """A tensor Vela introduced while rewriting the graph: "#<id>", or a
    TOSA tensor's name plus a word ("..._transpose", "..._reducesum",
    "..._int32"); a TOSA-style name that is merely missing does not count."""
    if name.startswith("#"):
        return True
    for known in reference:
        suffix = name[len(known) + 1 :] if name.startswith(known + "_") else ""
        if suffix and not suffix.isdigit():
            return True
    return False


# A U85 comparison writes true as all bits set (sim/npu/kernels/
# elementwise_logic.h). Vela makes TOSA's 0/1 bool from it with an AND by 1
# only where a reader needs 0/1; where only SELECT's bit masks read it
# (torch.sign, torch.where), the tensor keeps the mask. Either byte is a
# true bool: -1 (0xFF read signed) or 255 (read unsigned) counts as 1, and
# any other value except 0 and 1 still differs.
_MASK_TRUE = (-1, 0xFF)


def _bool_as_tosa(model: np.ndarray) -> np.ndarray:
    """A bool tensor's NPU bytes as TOSA's 0/1 (see _MASK_TRUE)."""
    values = model.astype(np.int64)
    return np.where(np.isin(values, _MASK_TRUE), 1, values)


def _writes_namesake(
    layer: Layer, reference: Dict[str, np.ndarray], placements: Dict[str, List[TensorPlacement]]
) -> bool:
    """The layer writes Vela's own tensor of a TOSA tensor's name: the name
    is placed more than once, and the layer's OFM elements are wider than
    the TOSA tensor's (an int32 intermediate named after an int8 result)."""
    want = reference.get(layer.tensor)
    width = _ELEMENT_BYTES.get(layer.ofm_dtype)
    return (
        want is not None
        and want.size > 0
        and width is not None
        and width > want.dtype.itemsize
        and len(placements.get(layer.tensor, [])) > 1
    )


def _placement(placements: Dict[str, List[TensorPlacement]], name: str, want: np.ndarray) -> Optional[TensorPlacement]:
    """The placement of the TOSA tensor `name`: the table's last of that
    name (a tensor Vela places anew, as a U55 transpose's passes do, is
    read where it ends up) among those whose elements are as wide as the
    reference's, so that a wider namesake of Vela's is passed over."""
    candidates = placements.get(name, [])
    for placement in reversed(candidates):
        if _ELEMENT_BYTES.get(placement.dtype) == want.dtype.itemsize:
            return placement
    return candidates[-1] if candidates else None


def _group(keys: List[Tuple[str, bool]]) -> List[List[int]]:
    """Runs of consecutive layers with one key: one tensor, one layer."""
    groups: List[List[int]] = []
    for i, key in enumerate(keys):
        if groups and keys[groups[-1][-1]] == key:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _layout_indices(shape: Tuple[int, ...], layout: str) -> Union[np.ndarray, str]:
    """Element index in the arena placement of each element of `shape`."""
    dims = (1,) * (4 - len(shape)) + tuple(shape) if len(shape) <= 4 else shape
    if len(dims) != 4 or dims[0] != 1:
        return f"shape {shape} is not one NHWC feature map"
    _, h, w, c = dims
    y, x, k = np.meshgrid(np.arange(h), np.arange(w), np.arange(c), indexing="ij")
    if layout == "NHWC":
        index = (y * w + x) * c + k
    elif layout == "NHCWB16":
        bricks = -(-c // 16)
        index = y * (w * bricks * 16) + (k // 16) * (w * 16) + x * 16 + k % 16
    else:
        return f"layout {layout} not understood"
    return index.reshape(shape)


def _squeezed(shape: Tuple[int, ...]) -> Tuple[int, ...]:
    """`shape` without its leading 1s."""
    dims = list(shape)
    while dims and dims[0] == 1:
        dims.pop(0)
    return tuple(dims)


def _written_width(op: TracedOperation, element_bytes: int) -> int:
    """Bytes per element an operation wrote: its channel stride where that
    is narrower than the tensor's element (a copy in halves), else the
    tensor's element size (strides are wider in a transpose, negative in a
    reverse)."""
    if op.offsets.ndim == 3 and op.offsets.shape[2] > 1:
        step = int(op.offsets[0, 0, 1]) - int(op.offsets[0, 0, 0])
        if 0 < step < element_bytes:
            return step
    return element_bytes


def _from_memory(
    ops: List[TracedOperation], shape: Tuple[int, ...], placement: Optional[TensorPlacement]
) -> Union[np.ndarray, str]:
    if placement is None:
        return "written in pieces but not in Vela's tensor table"
    size = _ELEMENT_BYTES.get(placement.dtype)
    if size is None:
        return f"element type {placement.dtype} not understood"
    if any(op.region == CHAIN_BUFFER for op in ops):
        return "written in pieces through the chain buffer"
    # A byte image of the placement: an operation may write narrower
    # elements than the tensor's (Vela copies an int32 tensor as int16
    # halves), so each write lands byte by byte, little-endian.
    count = placement.size // size
    memory = np.zeros(count * size, np.uint8)
    written_bytes = np.zeros(memory.shape, bool)
    for op in ops:  # in command order: a later write wins
        width = _written_width(op, size)
        relative = op.offsets.astype(np.int64).reshape(-1) - placement.start
        inside = (relative >= 0) & (relative + width <= memory.size)
        starts = relative[inside]
        data = op.ofm.reshape(-1)[inside].astype(np.int64)
        for byte in range(width):
            memory[starts + byte] = (data >> (8 * byte)) & 0xFF
            written_bytes[starts + byte] = True
    values = memory.view(_MEMORY_TYPES[placement.dtype]).astype(np.int64)
    written = written_bytes.reshape(count, size).all(axis=1)
    index = _layout_indices(shape, placement.layout)
    if isinstance(index, str):
        return index
    if index.size and int(index.max()) >= values.size:
        return f"{placement.layout} {shape} does not fit its {placement.size}-byte placement"
    missing = int(np.count_nonzero(~written[index]))
    if missing:
        return f"{missing} of {index.size} elements never written"
    return values[index]


def _closer(ofm: np.ndarray, in_memory: Union[np.ndarray, str], want: np.ndarray) -> np.ndarray:
    """A Transpose whose OFM has the tensor's shape either way (a square
    tensor: an attention's 2x2x2 heads): the OFM may be in the operation's
    order (U55 transposes by writing through strides) while memory holds
    the tensor's. The one closer to the reference; a wrong value differs
    in both."""
    if isinstance(in_memory, str):
        return ofm
    closer = np.count_nonzero(_minus(in_memory, want)) < np.count_nonzero(_minus(ofm, want))
    return in_memory.reshape(want.shape) if closer else ofm


def _minus(model: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Model minus reference, elementwise, flat, in int64."""
    return model.reshape(-1).astype(np.int64) - want.reshape(-1).astype(np.int64)


def compare_layers(
    layers: List[Layer],
    trace: List[TracedOperation],
    reference: Dict[str, np.ndarray],
    placements: Dict[str, List[TensorPlacement]],
) -> List[LayerResult]:
    if not layers:
        if trace:
            raise ValueError(f"{len(trace)} NPU operations ran, but the debug database lists no layers")
        # A stream of DMA copies only (Vela's Gather on U85 with constant
        # indices): no NPU operation, so no layer; its outputs are compared.
        return []
    ends = [layer.command_offset for layer in layers]
    by_layer: Dict[int, List[TracedOperation]] = {}
    for op in trace:
        index = bisect.bisect_left(ends, op.command_offset)
        if index == len(ends):
            raise ValueError(f"operation at command offset {op.command_offset} follows every layer")
        by_layer.setdefault(index, []).append(op)
    results = []
    keys = [(layer.tensor, _writes_namesake(layer, reference, placements)) for layer in layers]
    groups = _group(keys)
    # A tensor written in parts between other layers (a concatenation whose
    # inputs Vela computes one at a time) is compared where its last part is.
    last_group = {keys[group[0]]: n for n, group in enumerate(groups)}
    earlier: Dict[str, List[TracedOperation]] = {}
    for n, group in enumerate(groups):
        first = layers[group[0]]
        own = [op for i in group for op in by_layer.get(i, [])]
        result = LayerResult(first.operator, first.tensor, first.command_offset, len(own))
        results.append(result)
        if keys[group[0]][1]:
            result.internal = True
            continue
        ops = earlier.setdefault(first.tensor, [])
        ops.extend(own)
        if last_group[keys[group[0]]] != n:
            result.problem = "one part of a tensor written in parts: compared with its last part"
            continue
        want = reference.get(first.tensor)
        if want is None and _made_by_vela(first.tensor, reference):
            result.internal = True
            continue
        if want is None:
            result.problem = "no reference tensor of this name"
            continue
        if want.size == 0 and ops and any(op.ofm.size for op in ops):
            # The reference model returns INT48 results (A16W8 accumulators)
            # as empty arrays: it cannot export that type.
            result.unexported = True
            continue
        result.shape = tuple(want.shape)
        if not ops:
            result.problem = "the NPU model ran no operation for this layer"
            continue
        # One operation's OFM is the tensor, unless it is a Transpose whose
        # OFM has another shape: Vela's U55 Transpose writes through strides
        # that reorder the axes, so only memory holds the tensor's order.
        transposed = any(layers[i].operator == "Transpose" for i in group) and _squeezed(
            ops[-1].ofm.shape
        ) != _squeezed(want.shape)
        # A Reverse on U55 is an operation writing through a negative
        # stride: its OFM, in the operation's own order, is the tensor
        # unflipped, so memory holds the tensor's order there too.
        placement = _placement(placements, first.tensor, want)
        reversed_in_memory = any(layers[i].operator == "Reverse" for i in group) and placement is not None
        model: Union[np.ndarray, str]
        if len(ops) == 1 and ops[0].ofm.size == want.size and not transposed and not reversed_in_memory:
            model = ops[0].ofm.reshape(want.shape)
            if any(layers[i].operator == "Transpose" for i in group) and placement is not None:
                model = _closer(model, _from_memory(ops, result.shape, placement), want)
        else:
            model = _from_memory(ops, result.shape, placement)
            if isinstance(model, str):
                result.problem = model
                continue
        if want.dtype == np.bool_:
            model = _bool_as_tosa(model)
        diff = _minus(model, want)
        result.elements = int(diff.size)
        values, counts = np.unique(diff[diff != 0], return_counts=True)
        result.histogram = {int(v): int(c) for v, c in zip(values, counts)}
    return results


def format_table(results: List[LayerResult]) -> str:
    """One line per layer; differing layers carry their histogram."""
    lines = [
        f"{'#':>3} {'offset':>6} {'ops':>4}  {'operator':<16} {'tensor':<28} {'shape':<16} "
        f"{'elements':>9} {'differ':>8}  histogram (model - reference: count)"
    ]
    for i, r in enumerate(results):
        shape = "x".join(map(str, r.shape))
        head = f"{i:>3} {r.command_offset:>6} {r.operations:>4}  {r.operator:<16} {r.tensor:<28} {shape:<16}"
        if r.internal:
            lines.append(f"{head} {INTERNAL_NOTE}")
        elif r.unexported:
            lines.append(f"{head} {UNEXPORTED_NOTE}")
        elif r.problem is not None:
            lines.append(f"{head} NOT COMPARED: {r.problem}")
        else:
            hist = " ".join(f"{d:+d}:{c}" for d, c in sorted(r.histogram.items()))
            lines.append(f"{head} {r.elements:>9} {r.differing:>8}  {hist}")
    compared = [r for r in results if not r.checked_by_readers]
    bad = [r for r in compared if not r.exact]
    summary = f"{len(compared) - len(bad)} of {len(compared)} layers bit-exact"
    internal = sum(r.internal for r in results)
    unexported = sum(r.unexported for r in results)
    if internal:
        summary += f" ({internal} Vela-internal tensors besides)"
    if unexported:
        summary += f" ({unexported} INT48 accumulators checked through their readers)"
    if bad:
        summary += f"; first difference in layer {results.index(bad[0])} ({bad[0].tensor})"
    lines.append(summary)
    return "\n".join(lines)
