"""PyTorch's side of the lowering check: each delegate's quantized tensors,
and which TOSA tensor each should equal.

The NPU check (python/ethosu_sdk/verify) proves that Vela's command stream
computes what the TOSA graph says; this is what the TOSA graph must say. For
each Ethos-U delegate, the partition's own graph (the lowered module's
`original_module`: PyTorch's quantize/dequantize operators around float
ATen operators, i.e. the convert_pt2e graph) runs on the delegate's inputs,
and every `quantize_per_tensor` result is kept: those integers are what
PyTorch's quantized graph computes at that point. So is every delegate
output that is an integer (or bool) result of no quantize node: an integer
operator's result (a shift, a comparison, a gather of int32), which the
lowering must reproduce exactly (`exact` in its entry).

Correspondence with the TOSA graph (tensors are named after the backend
graph's FX nodes): the delegate's outputs by position; an intermediate by
provenance. Each backend node descends (`from_node`) from a node of the
first export, as does each PyTorch node. A quantize node stands for the
first-export nodes of the float operators that feed it without another
quantize in between (a convolution and the ReLU fused after it); the last
integer TOSA tensor in graph order descending from one of them is the
lowering's value of that quantize node. Where no TOSA tensor qualifies (the
lowering merged or split it) there is no intermediate comparison.

Written next to verify_data.py's files, per partition N:

    partitionN.pytorch.tensors  the quantize results (integers, PyTorch's order)
    partitionN.pytorch.json     one entry per tensor: the TOSA tensor it should
                                equal, or the delegate output index; scale,
                                zero point, qmin/qmax; PyTorch origin; for a
                                sum or product of quantized operands, the
                                operands (`combines`)

A 16-bit sum or product of operands that PyTorch and the lowering each
computed (an int16 producer's output added to or multiplied by the input,
at a finer scale than the producer's) inherits their differences, scaled:
one step of a coarse operand is several of the result. `combines` names the
operands and `limit`, what operands one step off carry at most
(`carry_limit`), so the check (verify/lowering_check.py, `carried`) can
allow what they carry, and the expected tensor file the same at a delegate
output (output_tolerance.py).
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Optional

import torch

from ethosu_sdk.aot import verify_data
from ethosu_sdk.quantized_width import clamp_range_bits
from ethosu_sdk.tensors import encode

FORMAT_VERSION = 1
_QUANTIZE = "quantize_per_tensor"
_DEQUANTIZE = "dequantize_per"
# Integer outputs the lowering check compares exactly (the tensor file's types).
_EXACT_DTYPES = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
# Float operators whose operands' differences the lowering check carries to
# their quantized result (`combines`): a sum, or a product of two operands,
# then only activations that move no two values further apart.
_SUMS = ("add", "sub")
_PRODUCTS = ("mul",)
_ONE_LIPSCHITZ = ("relu", "hardtanh", "clamp")


def _name(target: Any) -> str:
    return str(getattr(target, "__name__", None) or target)


def _is_wide_quantize(entry: dict[str, Any]) -> bool:
    """A quantize node wider than int8 (16 or 32 bits)."""
    return clamp_range_bits(entry.get("qmin"), entry.get("qmax")) > 8


def _is_quantize(node: torch.fx.Node) -> bool:
    return node.op == "call_function" and _QUANTIZE in _name(node.target) and _DEQUANTIZE not in _name(node.target)


def _is_dequantize(node: torch.fx.Node) -> bool:
    return node.op == "call_function" and _DEQUANTIZE in _name(node.target)


def delegate_calls(edge, program_inputs: tuple[torch.Tensor, ...]) -> list[tuple[Any, list[torch.Tensor]]]:
    """(lowered module, its tensor inputs) for each delegate call, in call
    order, when the edge program runs on `program_inputs`."""
    from torch.fx import Interpreter

    seen: list[tuple[Any, list[torch.Tensor]]] = []

    class Recorder(Interpreter):
        def call_function(self, target, args, kwargs):
            if "executorch_call_delegate" in _name(target):
                seen.append((args[0], [a.detach().clone() for a in args[1:] if isinstance(a, torch.Tensor)]))
            return super().call_function(target, args, kwargs)

    with torch.no_grad():
        Recorder(edge.exported_program().module()).run(*program_inputs)
    return seen


def _graph_outputs(graph_module: torch.fx.GraphModule) -> list[Any]:
    output = next(n for n in graph_module.graph.nodes if n.op == "output")
    results = output.args[0]
    return list(results) if isinstance(results, (list, tuple)) else [results]


def quantized_values(
    graph_module: torch.fx.GraphModule, inputs: list[torch.Tensor]
) -> tuple[dict[str, torch.Tensor], list[Optional[str]], dict[str, float]]:
    """Runs a partition's graph; returns every quantize node's result, and
    every graph output that is an integer result of another operator, by
    node name; the node name behind each graph output (None: neither); and
    the largest magnitude of each dequantize node's float result."""
    from torch.fx import Interpreter

    values: dict[str, torch.Tensor] = {}
    magnitudes: dict[str, float] = {}
    results = _graph_outputs(graph_module)
    integer_outputs = {r for r in results if isinstance(r, torch.fx.Node) and r.op == "call_function"}

    class Recorder(Interpreter):
        def run_node(self, n):
            result = super().run_node(n)
            if isinstance(result, torch.Tensor) and (
                _is_quantize(n) or (n in integer_outputs and result.dtype in _EXACT_DTYPES)
            ):
                values[n.name] = result.detach().clone()
            if isinstance(result, torch.Tensor) and _is_dequantize(n):
                magnitudes[n.name] = float(result.abs().max()) if result.numel() else 0.0
            return result

    with torch.no_grad():
        Recorder(graph_module).run(*inputs)
    names = [r.name if isinstance(r, torch.fx.Node) and r.name in values else None for r in results]
    return values, names, magnitudes


def _feeding_roots(quantize: torch.fx.Node) -> list[str]:
    """First-export names of the float operators that feed `quantize` without
    another quantize in between, nearest first."""
    roots, pending, seen = [], [quantize.args[0]], set()
    while pending:
        node = pending.pop(0)
        if not isinstance(node, torch.fx.Node) or node in seen or node.op != "call_function":
            continue
        seen.add(node)
        if _is_quantize(node) or _is_dequantize(node):
            continue
        root = verify_data._root_name(node) or node.name
        if root not in roots:
            roots.append(root)
        pending.extend(a for a in node.all_input_nodes)
    return roots


def _base_op(node: torch.fx.Node) -> str:
    """`aten.add.Tensor` -> `add`, `aten.relu_.default` -> `relu`."""
    name = verify_data._op_name(node.target)
    return name.split(".")[0].rstrip("_")


def _combines(quantize: torch.fx.Node, magnitudes: dict[str, float]) -> Optional[dict[str, Any]]:
    """The quantized operands a sum or product feeding `quantize` combines,
    or None when its float operators are anything else: the kind, and per
    operand the quantize node it dequantizes (None: a delegate input, the
    same on both sides), its scale and its largest float magnitude in
    PyTorch's run (`magnitudes`; None when not run)."""
    operands: list[dict[str, Any]] = []
    ops: list[str] = []
    pending, seen = [quantize.args[0]], set()
    while pending:
        node = pending.pop(0)
        if not isinstance(node, torch.fx.Node):
            return None
        if node in seen:
            continue
        seen.add(node)
        if _is_dequantize(node):
            source = node.args[0]
            if not isinstance(source, torch.fx.Node):
                return None
            operands.append(
                {
                    "node": source.name if _is_quantize(source) else None,
                    "scale": _quant_args(node)["scale"],
                    "zero_point": _quant_args(node)["zero_point"],
                    "magnitude": magnitudes.get(node.name),
                }
            )
            continue
        if node.op != "call_function" or _is_quantize(node):
            return None
        ops.append(_base_op(node))
        pending.extend(node.all_input_nodes)
    combining = [op for op in ops if op not in _ONE_LIPSCHITZ]
    if len(combining) != 1:
        return None
    if combining[0] in _SUMS:
        return {"kind": "sum", "operands": operands}
    if combining[0] in _PRODUCTS and len(operands) == 2:
        return {"kind": "product", "operands": operands}
    return None


def carry_limit(combines: dict[str, Any], scale: Optional[float]) -> int:
    """The steps a sum or product at `scale` inherits when each quantized
    operand is one step off (its own tolerance) and each delegate input
    exact: the most the lowering check lets it carry, and what a delegate
    output's expected tensor allows on the board beyond one step."""
    operands = combines["operands"]
    if not scale or any(o["node"] is not None and not o.get("scale") for o in operands):
        return 0
    steps = [float(o["scale"]) if o["node"] is not None else 0.0 for o in operands]
    if combines["kind"] == "sum":
        spread = sum(steps)
    elif any(o.get("magnitude") is None for o in operands):
        return 0
    else:
        # |a'b' - ab| <= |a' - a| |b| + (|a| + |a' - a|) |b' - b|
        (da, db), (ma, mb) = steps, (float(o["magnitude"]) for o in operands)
        spread = da * mb + (ma + da) * db
    # A hair below a whole step is that step (float scales), not the next.
    return math.ceil(spread / scale - 1e-6)


def _quant_args(node: torch.fx.Node) -> dict[str, Any]:
    scale, zero_point, qmin, qmax = (node.args[1:5] + (None,) * 4)[:4]
    return {
        "scale": float(scale) if isinstance(scale, (int, float)) else None,
        "zero_point": int(zero_point) if isinstance(zero_point, int) else None,
        "qmin": int(qmin) if isinstance(qmin, int) else None,
        "qmax": int(qmax) if isinstance(qmax, int) else None,
    }


def _origin(node: torch.fx.Node, roots: list[str], first: dict[str, dict[str, Optional[str]]]) -> dict[str, Any]:
    """First-export root, module path, type, operator and source line of the
    nearest operator feeding a quantize node (the one whose result it
    quantizes), or of an integer output's own operator."""
    quantize = _is_quantize(node) and isinstance(node.args[0], torch.fx.Node)
    producer = node.args[0] if quantize else node
    stack = producer.meta.get("nn_module_stack") or {}
    path, kind = next(reversed(stack.values())) if stack else ("", None)
    if isinstance(kind, type):
        kind = kind.__name__
    root = first.get(roots[0], {}) if roots else {}
    return {
        # The first-export operator it descends from: several quantize nodes
        # with one root are the steps of that operator's decomposition.
        "root": roots[0] if roots else None,
        "module": path,
        "module_type": str(kind).rsplit(".", 1)[-1] if kind else None,
        "op": root.get("op") or verify_data._op_name(producer.target),
        "source": root.get("source") or verify_data.user_frame(producer.meta.get("stack_trace")),
    }


def integer_tosa_tensors(backend: dict[str, dict[str, Any]]) -> list[str]:
    """Backend node names (TOSA tensors) with 8- or 16-bit integer results, in graph order."""
    return [
        name
        for name, origin in backend.items()
        if origin.get("dtype") in ("int8", "int16") and origin.get("tosa_op") != "input"
    ]


def entries_for(
    graph_module: torch.fx.GraphModule,
    values: dict[str, torch.Tensor],
    outputs: list[Optional[str]],
    backend: dict[str, dict[str, Any]],
    first: dict[str, dict[str, Optional[str]]],
    magnitudes: Optional[dict[str, float]] = None,
) -> list[dict[str, Any]]:
    """One entry per quantize result: which TOSA tensor should hold it; and
    one per integer output of another operator (`exact`: no quantization
    step to round, so the lowering must equal it)."""
    candidates = integer_tosa_tensors(backend)
    entries = []
    for node in graph_module.graph.nodes:
        if node.name not in values:
            continue
        if not _is_quantize(node):
            entries.append(
                {
                    "node": node.name,
                    "tosa": None,
                    "output": outputs.index(node.name),
                    "shape": list(values[node.name].shape),
                    "exact": True,
                    **_origin(node, [], first),
                }
            )
            continue
        roots = _feeding_roots(node)
        matching = [
            name
            for name in candidates
            if backend[name].get("root") in roots and backend[name].get("numel") == values[node.name].numel()
        ]
        entry: dict[str, Any] = {
            "node": node.name,
            "tosa": matching[-1] if matching else None,
            "output": outputs.index(node.name) if node.name in outputs else None,
            "shape": list(values[node.name].shape),
            **_quant_args(node),
            **_origin(node, roots, first),
        }
        # 16- and 32-bit results only: an int8 step is as coarse as its operands',
        # and the one-step bound holds there (the pattern sweep, int8).
        combines = _combines(node, magnitudes or {}) if _is_wide_quantize(entry) else None
        if combines is not None:
            combines["limit"] = carry_limit(combines, entry["scale"])
            entry["combines"] = combines
        entries.append(entry)
    # Quantize nodes that share a first-export root are the steps of that
    # operator's decomposition; the last one is its result. Marked before
    # any entry is dropped, so a step never stands in for a result that
    # has no TOSA tensor of its own.
    last_of_root = {e["root"]: i for i, e in enumerate(entries) if e["root"] is not None}
    for i, e in enumerate(entries):
        e["step_of"] = e["root"] if e["root"] is not None and last_of_root[e["root"]] != i else None
    # A TOSA tensor is the value of the last quantize node mapped to it: the
    # earlier ones are steps the lowering did not keep (a mean's sum before
    # its division, say).
    last = {e["tosa"]: i for i, e in enumerate(entries) if e["tosa"] is not None}
    for i, e in enumerate(entries):
        if e["tosa"] is not None and last[e["tosa"]] != i:
            e["tosa"] = None
    kept = [e for e in entries if e["tosa"] is not None or e["output"] is not None]
    _operands_through_equal_tensors(kept, values)
    return kept


def _operands_through_equal_tensors(kept: list[dict[str, Any]], values: dict[str, torch.Tensor]) -> None:
    """A sum's or product's operand whose quantize node kept no entry
    because the lowering computes it once for several consumers (the
    pattern sweep's matmul: four patterns' identical products and
    activations are one TOSA tensor) is compared through the kept entry
    with the same quantization and the same values in PyTorch's run: that
    entry's TOSA tensor is the operand's too."""
    by_node = {e["node"]: e for e in kept}
    for entry in kept:
        for operand in (entry.get("combines") or {}).get("operands", []):
            name = operand["node"]
            if name is None or name in by_node or name not in values:
                continue
            for other in kept:
                if (
                    (other.get("scale"), other.get("zero_point")) == (operand["scale"], operand.get("zero_point"))
                    and other["node"] in values
                    and values[other["node"]].shape == values[name].shape
                    and torch.equal(values[other["node"]], values[name])
                ):
                    operand["node"], operand["equal_to"] = other["node"], name
                    break


def _wide_combining_outputs(graph_module: torch.fx.GraphModule) -> dict[int, tuple[torch.fx.Node, str]]:
    """Delegate outputs that are 16-bit sums or products: index -> (quantize
    node, kind). From the graph alone."""
    found = {}
    for index, node in enumerate(_graph_outputs(graph_module)):
        if isinstance(node, torch.fx.Node) and _is_quantize(node) and _is_wide_quantize(_quant_args(node)):
            combines = _combines(node, {})
            if combines is not None:
                found[index] = (node, combines["kind"])
    return found


def output_carry_limits(edge: Any, program_inputs: tuple[torch.Tensor, ...]) -> list[list[int]]:
    """Per Ethos-U delegate call, per output: the steps a 16-bit sum or
    product may carry from operands one step off (carry_limit), else 0;
    what the expected tensor file allows beyond its own tolerance. Runs
    the partitions in PyTorch only where a product needs magnitudes."""
    lowered_modules = [
        getattr(edge.exported_program().graph_module, n.args[0].target)
        for n in edge.exported_program().graph_module.graph.nodes
        if n.op == "call_function" and "executorch_call_delegate" in _name(n.target)
    ]
    partition_graphs = [m.original_module.module() for m in lowered_modules]
    wide = [_wide_combining_outputs(g) for g in partition_graphs]
    runs: dict[int, dict[str, float]] = {}
    if any(kind == "product" for found in wide for _, kind in found.values()):
        for index, (lowered, inputs) in enumerate(delegate_calls(edge, program_inputs)):
            runs[index] = quantized_values(lowered.original_module.module(), inputs)[2]
    limits = []
    for index, (graph_module, found) in enumerate(zip(partition_graphs, wide)):
        per_output = [0] * len(_graph_outputs(graph_module))
        for position, (node, _) in found.items():
            combines = _combines(node, runs.get(index, {}))
            if combines is not None:
                per_output[position] = carry_limit(combines, _quant_args(node)["scale"])
        limits.append(per_output)
    return limits


def write(
    directory: str,
    partitions: list,
    calls: list[tuple[Any, list[torch.Tensor]]],
    first: dict[str, dict[str, Optional[str]]],
) -> None:
    """Adds each partition's PyTorch tensors to the verification directory
    (after verify_data.write: updates its manifest)."""
    manifest_path = os.path.join(directory, "manifest.json")
    with open(manifest_path) as f:
        manifest = json.load(f)
    for p, entry in zip(partitions, manifest["partitions"]):
        if len(calls) != len(partitions):
            entry["pytorch_skipped"] = f"{len(calls)} delegate calls for {len(partitions)} partitions"
            continue
        lowered, inputs = calls[p.index]
        graph_module = lowered.original_module.module()
        values, outputs, magnitudes = quantized_values(graph_module, inputs)
        entries = entries_for(graph_module, values, outputs, p.origins, first, magnitudes)
        stem = f"partition{p.index}"
        entry["pytorch"] = stem + ".pytorch.json"
        entry["pytorch_tensors"] = stem + ".pytorch.tensors"
        with open(os.path.join(directory, entry["pytorch_tensors"]), "wb") as f:
            f.write(encode([values[e["node"]].contiguous().numpy() for e in entries]))
        with open(os.path.join(directory, entry["pytorch"]), "w") as f:
            json.dump({"format_version": FORMAT_VERSION, "tensors": entries}, f, indent=1, sort_keys=True)
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
