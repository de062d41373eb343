"""Where the accuracy goes: per-layer quantization error, by PyTorch module.

For each activation the PT2E graph quantizes (a quantize -> dequantize pair
after an operator, named by the operator's PyTorch module), on the
evaluation samples, SQNR = 10 log10(sum f^2 / sum (f - q)^2) in dB over all
samples, where q is the dequantized activation and f:
  - `sqnr_db`: the value the graph quantizes there (its float result from
    the quantized inputs): the error this layer's quantization adds; the
    rows are sorted by it, lowest first, so the layer that loses the most
    comes first;
  - `cumulative_sqnr_db`: the float model's output of the same module (a
    forward hook): the error accumulated from the input up to that layer.
`consumers` names the modules that read the activation: an activation is
carried in 16 bits only when they take it so too (the precision tuner,
aot/search/precision.py, gives them int16 inputs with it).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import torch
from torch import fx

_QUANTIZE = "quantize_per_tensor"
_DEQUANTIZE = "dequantize_per_tensor"
_SELF_PREFIX = "L['self']."  # strict export's spelling of the root module


def _is(node: fx.Node, name: str) -> bool:
    return node.op == "call_function" and name in str(node.target)


def _module_of(node: fx.Node) -> tuple[str, str]:
    stack = node.meta.get("nn_module_stack") or {}
    if not stack:
        return "", ""
    path, kind = next(reversed(stack.values()))
    kind = kind.__name__ if isinstance(kind, type) else str(kind).rsplit(".", 1)[-1]
    return (path[len(_SELF_PREFIX) :] if path.startswith(_SELF_PREFIX) else path), kind


def consumers(quantize: fx.Node) -> list[str]:
    """The module paths of the nodes that read a quantized activation (through
    its dequantize nodes, and through operators of no module, such as the
    forward's own torch.flatten), sorted; the graph's output has none."""
    paths: set[str] = set()
    pending = [user for dq in quantize.users if _is(dq, _DEQUANTIZE) for user in dq.users]
    seen: set[fx.Node] = set()
    while pending:
        node = pending.pop()
        if node in seen or node.op != "call_function" or _is(node, _QUANTIZE):
            continue
        seen.add(node)
        path = _module_of(node)[0]
        if path:
            paths.add(path)
        else:
            pending.extend(node.users)
    return sorted(paths)


def quantized_activations(graph_module: fx.GraphModule) -> dict[str, tuple[str, fx.Node, fx.Node]]:
    """Module path -> (module type, the node quantized, its dequantize node),
    of the module's last quantized output in graph order."""
    found: dict[str, tuple[str, fx.Node, fx.Node]] = {}
    for node in graph_module.graph.nodes:
        if not _is(node, _QUANTIZE) or not isinstance(node.args[0], fx.Node):
            continue
        path, kind = _module_of(node.args[0])
        dequantized = [user for user in node.users if _is(user, _DEQUANTIZE)]
        if path and dequantized:
            found[path] = (kind, node.args[0], dequantized[0])
    return found


class _Recorder(fx.Interpreter):
    def __init__(self, module: fx.GraphModule, wanted: set[fx.Node]):
        super().__init__(module)
        self.wanted = wanted
        self.values: dict[fx.Node, torch.Tensor] = {}

    def run_node(self, n: fx.Node):
        value = super().run_node(n)
        if n in self.wanted:
            self.values[n] = value.detach()
        return value


def _db(signal: float, noise: float) -> float | None:
    """SQNR in dB, None where the quantization lost nothing."""
    return None if noise == 0 else round(10 * math.log10(max(signal, 1e-30) / noise), 2)


def _add(sums: list[float], f: torch.Tensor, q: torch.Tensor) -> None:
    sums[0] += float((f.double() ** 2).sum())
    sums[1] += float(((f.double() - q.double()) ** 2).sum())


def layer_sqnr(
    float_module: torch.nn.Module, quantized: fx.GraphModule, samples: Sequence[tuple[torch.Tensor, ...]]
) -> list[dict[str, Any]]:
    """One row per quantized module output, lowest SQNR first."""
    modules = dict(float_module.named_modules())
    activations = quantized_activations(quantized)
    local = {p: [0.0, 0.0] for p in activations}
    cumulative = {p: [0.0, 0.0] for p in activations}
    elements = {p: 0 for p in activations}
    floats: dict[str, torch.Tensor] = {}
    hooks = [
        modules[p].register_forward_hook(lambda _m, _i, out, p=p: floats.__setitem__(p, out))
        for p in activations
        if p in modules
    ]
    wanted = {n for _, before, after in activations.values() for n in (before, after)}
    try:
        with torch.no_grad():
            for inputs in samples:
                floats.clear()
                float_module(*inputs)
                recorder = _Recorder(quantized, wanted)
                recorder.run(*inputs)
                for path, (_, before, after) in activations.items():
                    q = recorder.values[after]
                    _add(local[path], recorder.values[before], q)
                    elements[path] += q.numel()
                    f = floats.get(path)
                    if isinstance(f, torch.Tensor) and f.shape == q.shape:
                        _add(cumulative[path], f.detach(), q)
    finally:
        for hook in hooks:
            hook.remove()
    rows: list[dict[str, Any]] = [
        {
            "module": path,
            "module_type": kind,
            "elements": elements[path],
            "sqnr_db": _db(*local[path]),
            "cumulative_sqnr_db": _db(*cumulative[path]) if cumulative[path][0] else None,
            "consumers": consumers(after.args[0]),
        }
        for path, (kind, _, after) in activations.items()
    ]
    return sorted(rows, key=_worst_first)


def _worst_first(row: dict[str, Any]) -> float:
    return math.inf if row["sqnr_db"] is None else float(row["sqnr_db"])
