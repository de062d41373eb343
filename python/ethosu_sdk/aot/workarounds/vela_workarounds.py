"""Graph rewrites that steer Vela around its known miscompilations.

Each rewrite is exact (it moves data only, so quantization and outputs are
unchanged), applies only where its pattern occurs, and is reported in the
summary so a user can see what was changed and why.

Which Vela versions each rewrite runs for: vela_faults.py.

Vela 5.1.0 and 5.2.0, unbind MatMul (sim/npu/README.md, "Where Vela departs from
TOSA"): when a MatMul's left operand is one slice of `unbind()` over a
rank-5 permute (multi-head attention's `qkv.permute(2, 0, 3, 1, 4).unbind(0)`),
Vela keeps the slice's rank-5 IFM and decomposes the MatMul per head on the
OFM's axis numbers, so every head reads head 0's queries. Taking each slice
from a rank-4 tensor fixes the U85. The U55 (and U65) command stream
generator has a second fault on the batch axis: a batched MatMul whose IFM is
a slice, or whose OFM is written at a batch offset, steps neither. There the
MatMuls also run one head at a time, joined on the row axis.

Vela 5.1.0 (fixed in 5.2.0), CLAMP between a linear layer and its output RESHAPE (issue 33's
pattern sweep, tests/lowering/README.md): ExecuTorch lowers `nn.Linear` on
a 4-D tensor as RESHAPE -> CONV2D (1x1, one batch per row) -> RESCALE ->
RESHAPE. With a CLAMP between the RESCALE and the RESHAPE (the SDK's own
dropped-activation clamp, lowering_workarounds.py), Vela fuses the input
RESHAPE and the CLAMP into one Conv2D but describes its IFM with the
pre-reshape shape. For x of shape (1, 8, 8, 8) the U85 stream's Conv2D
writes 64 rows of one column (OFM_HEIGHT_M1 63) and reads 8 rows of one
column (IFM_WIDTH0_M1 0, IFM_STRIDE_Y one whole row) plus 56 rows of
bottom padding (IFM_PAD_BOTTOM 56): the functional NPU model's row r < 8
equals the TOSA graph's row 8r and rows 8..63 are the bias alone, which is
what those registers say, not what the TOSA graph says. The U55 stream
differs from the TOSA graph in the same 379 of 512 elements. With the
CLAMP after the RESHAPE (the order ExecuTorch writes for an unfused
activation) both streams are exact. Moving it changes no value: a clamp is
elementwise and a reshape moves no element.
"""

from __future__ import annotations

import contextlib
import dataclasses
import operator
from typing import Any, Callable, Iterator, Optional

import torch

from ethosu_sdk.aot.workarounds import vela_faults

_MATMULS = {torch.ops.aten.matmul.default, torch.ops.aten.bmm.default}
# Metadata the quantizer and the verification's PyTorch names read.
_KEPT_META = ("nn_module_stack", "stack_trace", "source_fn_stack", "torch_fn", "from_node")


@dataclasses.dataclass(frozen=True)
class Workaround:
    name: str  # what Vela issue it avoids
    nodes: tuple[str, ...]  # the rewritten nodes of the exported graph

    def as_summary(self) -> dict:
        return {"name": self.name, "nodes": list(self.nodes)}


def reaches(
    node: torch.fx.Node,
    found: Callable[[torch.fx.Node, torch.fx.Node], bool],
    through: Callable[[torch.fx.Node], bool],
) -> bool:
    """True when a user `u` of `node`, or of a chain of users for which
    `through` holds, has `found(u, the node it uses)`."""
    pending, seen = [node], set()
    while pending:
        current = pending.pop()
        for user in current.users:
            if user in seen:
                continue
            seen.add(user)
            if found(user, current):
                return True
            if through(user):
                pending.append(user)
    return False


def _feeds_matmul(node: torch.fx.Node) -> bool:
    """True when `node` reaches a MatMul through data movement only."""
    return reaches(
        node,
        lambda user, _: user.target in _MATMULS,
        lambda user: user.target in (torch.ops.aten.transpose.int, torch.ops.aten.permute.default),
    )


def _unbind_of_rank5_permute(node: torch.fx.Node) -> Optional[tuple[torch.fx.Node, list[int], int]]:
    """(permute input, permutation, unbind dim) when `node` unbinds a rank-5 permute."""
    if node.op != "call_function" or node.target is not torch.ops.aten.unbind.int:
        return None
    permute = node.args[0]
    if not isinstance(permute, torch.fx.Node) or permute.target is not torch.ops.aten.permute.default:
        return None
    perm = [int(p) for p in permute.args[1]]
    if len(perm) != 5:
        return None
    dim = int(node.args[1]) if len(node.args) > 1 else int(node.kwargs.get("dim", 0))
    return permute.args[0], [p % 5 for p in perm], dim % 5


def _copy_meta(source: torch.fx.Node, target: torch.fx.Node, value) -> None:
    for key in _KEPT_META:
        if key in source.meta:
            target.meta[key] = source.meta[key]
    target.meta["val"] = value


def _slice_unbinds(graph_module: torch.fx.GraphModule) -> tuple[list[str], set[torch.fx.Node]]:
    """Rewrite `permute(x, p).unbind(d)[i]` (rank 5, each slice of shape
    (r0, r1, r2, r3)) as slice i along axis 1 of a rank-4 tensor:
    `permute(x, p').reshape(r0, n * r1, r2, r3)[:, i*r1:(i+1)*r1]`, where p'
    puts the unbound axis just before r1. Only where a slice feeds a MatMul;
    returns the unbind nodes rewritten and the slices made."""
    rewritten: list[str] = []
    slices: set[torch.fx.Node] = set()
    graph = graph_module.graph
    for node in list(graph.nodes):
        match = _unbind_of_rank5_permute(node)
        if match is None:
            continue
        source, perm, dim = match
        getitems = list(node.users)
        if not all(user.target is operator.getitem for user in getitems):
            continue
        if not any(_feeds_matmul(user) for user in getitems):
            continue
        kept = [axis for position, axis in enumerate(perm) if position != dim]
        order = [kept[0], perm[dim]] + kept[1:]
        moved = source.meta["val"].permute(order)
        count, rows = moved.shape[1], moved.shape[2]
        merged = [moved.shape[0], count * rows] + list(moved.shape[3:])
        with graph.inserting_before(node):
            permute = graph.call_function(torch.ops.aten.permute.default, (source, order))
            view = graph.call_function(torch.ops.aten.reshape.default, (permute, merged))
        _copy_meta(node.args[0], permute, moved)
        _copy_meta(node.args[0], view, moved.reshape(merged))
        for getitem in getitems:
            index = int(getitem.args[1])
            with graph.inserting_before(getitem):
                part = graph.call_function(torch.ops.aten.slice.Tensor, (view, 1, index * rows, (index + 1) * rows))
            _copy_meta(getitem, part, view.meta["val"][:, index * rows : (index + 1) * rows])
            slices.add(part)
            getitem.replace_all_uses_with(part)
            graph.erase_node(getitem)
        rewritten.append(node.name)
        old_permute = node.args[0]
        graph.erase_node(node)
        if not old_permute.users:
            graph.erase_node(old_permute)
    return rewritten, slices


def _reads(node: torch.fx.Node, slices: set[torch.fx.Node]) -> bool:
    """True when `node` is one of `slices`, directly or through transposes."""
    while node.target in (torch.ops.aten.transpose.int, torch.ops.aten.permute.default):
        node = node.args[0]
    return node in slices


def _split_heads(graph_module: torch.fx.GraphModule, slices: set[torch.fx.Node]) -> list[str]:
    """Rewrite each 4-D `matmul(a, b)` reading one of `slices` as one matmul
    per head (axis 1), concatenated again. The concatenation shares one
    quantization for its inputs and output, so the heads keep the batched
    MatMul's scale."""
    rewritten: list[str] = []
    graph = graph_module.graph
    for node in list(graph.nodes):
        if node.target not in _MATMULS:
            continue
        a, b = node.args[:2]
        if not (_reads(a, slices) or _reads(b, slices)):
            continue
        va, vb = a.meta["val"], b.meta["val"]
        if va.dim() != 4 or vb.dim() != 4 or va.shape[1] != vb.shape[1]:
            continue
        heads = []
        with graph.inserting_before(node):
            for head in range(va.shape[1]):
                operands = []
                for operand, value in ((a, va), (b, vb)):
                    piece = graph.call_function(torch.ops.aten.slice.Tensor, (operand, 1, head, head + 1))
                    _copy_meta(node, piece, value[:, head : head + 1])
                    operands.append(piece)
                product = graph.call_function(node.target, tuple(operands))
                _copy_meta(node, product, node.meta["val"][:, head : head + 1])
                heads.append(product)
            # Joined on axis 2, then viewed as (batch, heads, rows, columns):
            # Vela's U55 MatMul does not write at a batch (axis 1) offset.
            stacked = graph.call_function(torch.ops.aten.cat.default, (heads, 2))
            out = node.meta["val"]
            rows = [out.shape[0], 1, out.shape[1] * out.shape[2], out.shape[3]]
            _copy_meta(node, stacked, out.reshape(rows))
            joined = graph.call_function(torch.ops.aten.reshape.default, (stacked, list(out.shape)))
        _copy_meta(node, joined, out)
        node.replace_all_uses_with(joined)
        graph.erase_node(node)
        rewritten.append(node.name)
    return rewritten


def avoid_unbind_matmul(graph_module: torch.fx.GraphModule, split_heads: bool) -> Optional[Workaround]:
    """Vela's unbind MatMul issue (5.1.0, 5.2.0): each unbind() slice that feeds a
    MatMul becomes a slice of a rank-4 tensor (enough on the U85); with
    `split_heads` (the U55, whose batch loop does not step a sliced IFM),
    those MatMuls also run one head at a time. None where the pattern is absent."""
    unbinds, slices = _slice_unbinds(graph_module)
    if not unbinds:
        return None
    matmuls = _split_heads(graph_module, slices) if split_heads else []
    graph_module.graph.lint()
    graph_module.recompile()
    return Workaround(vela_faults.UNBIND_MATMUL.name, tuple(unbinds + matmuls))


# Vela 5.1.0 and 5.2.0, lost partition output: when a partition output is the result
# of a TRANSPOSE (ExecuTorch's NHWC -> NCHW at a delegate boundary) and the
# partition also reads that output through the inverse TRANSPOSE (back to
# NHWC for a later operator), Vela removes the pair and the output with it:
# its payload lists one output fewer than the TOSA graph, so the delegate
# call has more arguments than the payload expects and nothing runs
# (tests/kernels:detection_u55_128, a feature map read both by the next
# convolution and, past an upsample on the CPU, by a later partition).
# Reading the transpose's input directly is exact (the pair is the identity)
# and leaves Vela nothing to remove.
LOST_OUTPUT = vela_faults.LOST_OUTPUT.name


def _composes_to_identity(first: list[int], second: list[int]) -> bool:
    """True when permuting by `first` and then by `second` moves nothing."""
    return len(first) == len(second) and all(first[second[axis]] == axis for axis in range(len(second)))


def fold_output_transpose_pairs(graph_module: torch.fx.GraphModule) -> list[str]:
    """Bypass each TRANSPOSE that undoes a TRANSPOSE whose result is a graph
    output (see LOST_OUTPUT); returns the bypassed nodes' names."""
    from executorch.exir.dialects._ops import ops as exir_ops

    transpose = exir_ops.backend.tosa.TRANSPOSE.default
    graph = graph_module.graph
    outputs = {arg for node in graph.nodes if node.op == "output" for arg in node.all_input_nodes}
    bypassed: list[str] = []
    for node in list(graph.nodes):
        if node.target != transpose:
            continue
        inner = node.args[0]
        if not isinstance(inner, torch.fx.Node) or inner.target != transpose or inner not in outputs:
            continue
        if not _composes_to_identity(list(inner.args[1]), list(node.args[1])):
            continue
        node.replace_all_uses_with(inner.args[0])
        graph.erase_node(node)
        bypassed.append(node.name)
    if bypassed:
        graph.lint()
        graph_module.recompile()
    return bypassed


@contextlib.contextmanager
def after_backend_pipeline(visit: Callable[[torch.fx.GraphModule], None]) -> Iterator[None]:
    """Within the block, `visit` sees (and may rewrite) every partition's
    backend graph once ExecuTorch's passes have made it, before it is
    serialized to TOSA. Blocks nest: an outer block's `visit` sees what the
    inner ones made of the graph."""
    with after_backend_pipeline_of(lambda _spec, _program, graph_module: visit(graph_module)):
        yield


@contextlib.contextmanager
def after_backend_pipeline_of(visit: Callable[[Any, Any, torch.fx.GraphModule], None]) -> Iterator[None]:
    """after_backend_pipeline, `visit` also given the partition's TOSA
    specification and its exported program (where a new constant goes)."""
    from executorch.backends.arm._passes import ArmPassManager

    original = ArmPassManager.transform_to_backend_pipeline

    def pipeline(self, exported_program, graph_module):
        graph_module = original(self, exported_program=exported_program, graph_module=graph_module)
        visit(self.tosa_spec, exported_program, graph_module)
        return graph_module

    ArmPassManager.transform_to_backend_pipeline = pipeline
    try:
        yield
    finally:
        ArmPassManager.transform_to_backend_pipeline = original


@contextlib.contextmanager
def keep_transposed_outputs() -> Iterator[list[str]]:
    """Within the block, every partition's backend graph goes through
    fold_output_transpose_pairs after ExecuTorch's passes; the list yielded
    collects the bypassed nodes. Enter it before anything else that wraps the
    same pipeline, so that they see the result. Nothing is bypassed where the
    installed Vela is not one the fault is for (vela_faults.py)."""
    bypassed: list[str] = []
    if not vela_faults.applies(vela_faults.LOST_OUTPUT):
        yield bypassed
        return
    with after_backend_pipeline(lambda graph_module: bypassed.extend(fold_output_transpose_pairs(graph_module))):
        yield bypassed


def clamps_after_reshapes(graph_module: torch.fx.GraphModule) -> list[str]:
    """Vela's linear CLAMP issue (module doc), on the backend (TOSA dialect)
    graph ExecuTorch serializes: each CLAMP that reads a RESCALE and feeds
    only a chain of RESHAPEs moves after the last of them. Returns the
    CLAMPs moved (none where the pattern is absent)."""
    from executorch.exir.dialects._ops import ops as exir_ops

    clamp_op = exir_ops.backend.tosa.CLAMP.default
    reshape_op = exir_ops.backend.tosa.RESHAPE.default
    rescale_op = exir_ops.backend.tosa.RESCALE.default
    moved: list[str] = []
    for clamp in list(graph_module.graph.nodes):
        if clamp.target != clamp_op:
            continue
        source = clamp.args[0]
        if not isinstance(source, torch.fx.Node) or source.target != rescale_op:
            continue
        last = clamp
        while len(last.users) == 1 and next(iter(last.users)).target == reshape_op:
            last = next(iter(last.users))
        if last is clamp:
            continue
        # RESCALE -> CLAMP -> RESHAPE ... becomes RESCALE -> RESHAPE ... -> CLAMP.
        first = next(iter(clamp.users))
        last.replace_all_uses_with(clamp)
        first.args = (source,) + tuple(first.args[1:])
        clamp.args = (last,) + tuple(clamp.args[1:])
        last.append(clamp)
        clamp.meta["val"] = clamp.meta["val"].reshape(last.meta["val"].shape)
        moved.append(clamp.name)
    if moved:
        graph_module.graph.lint()
        graph_module.recompile()
    return moved
