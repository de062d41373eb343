"""The CPU's int8 fallbacks on an Ethos-U target: ExecuTorch's cortex_m passes
on what the Ethos-U partitioner leaves behind.

An operator the partitioner refuses (an average pool with a stride above 3 on
the Ethos-U55, say) stays in the edge graph as dequantize -> float operator
-> quantize, which the portable kernels would run in float. ExecuTorch's
`CortexMPassManager` rewrites exactly such quantized patterns into
`cortex_m::` int8 operators (the SDK's kernels: cc/kernels/cortex_m) and
leaves the delegate calls alone, so it runs on the partitioned graph as it
does on a whole graph for a Cortex-M target (cortex_m.py).

Only a graph with a fallback the cortex_m backend converts is rewritten: a
fully delegated program, or one whose fallbacks are operators without a
cortex_m:: form (a sort, a bilinear upsample), keeps its portable operators
as before. So does a graph the passes convert only in part: they fold the
quantize/dequantize around an operator whose shape their substitution then
declines (a linear layer on a 4-D tensor), which would leave a float
operator fed int8 tensors; the whole rewrite is dropped then. And a graph
with a convolution other than 2-D (conv3d, which the Ethos-U55 partitioner
leaves on the CPU) keeps its portable operators: the cortex_m backend's
convolution substitution takes every convolution and assumes 4-D tensors
(ExecuTorch 1.5.1 fails inside the pass on a 5-D weight), while the
portable kernel runs 1-D, 2-D and 3-D.
"""

from __future__ import annotations

import copy

import torch

# Ethos-U family -> the Cortex-M of the boards that carry it (the cortex_m
# backend's CortexM member: its passes size the kernels' scratch buffers
# for that CPU's CMSIS-NN variant). Corstone-300 (and the SDK's qemu_an547):
# Cortex-M55; Corstone-320: Cortex-M85.
HOST_CPU = {"ethos-u55": "M55", "ethos-u65": "M55", "ethos-u85": "M85"}

# Operators that are not a fallback: the program's own I/O quantize and
# dequantize, the delegate calls, tuple access and memory planning.
_NOT_FALLBACKS = ("quantize_per_tensor", "dequantize_per_tensor", "executorch_call_delegate", "getitem", "alloc")


def _name(target: object) -> str:
    return str(getattr(target, "__name__", None) or target)


def _converted_targets() -> set:
    """The edge operators ExecuTorch's cortex_m backend rewrites into
    cortex_m:: operators (the targets its AtenToCortexMPass registers a
    substitution for)."""
    import executorch.backends.cortex_m.passes  # noqa: F401  (registers torch.ops.cortex_m first)
    from executorch.backends.cortex_m.passes.aten_to_cortex_m_pass import AtenToCortexMPass

    return set(AtenToCortexMPass._DIALECT_SUBSTITUTIONS)


# Rank of the tensors of a 2-D convolution, the only one the cortex_m
# backend's substitution takes.
_CONV2D_RANK = 4


def _non_2d_convolutions(graph) -> list[str]:
    """Convolutions whose input is not 4-D (the cortex_m pass cannot take them)."""
    names = []
    for node in graph.nodes:
        if node.op == "call_function" and "convolution" in _name(node.target) and node.args:
            value = getattr(node.args[0], "meta", {}).get("val")
            if value is not None and value.dim() != _CONV2D_RANK:
                names.append(node.name)
    return names


def fallbacks(edge) -> list[str]:
    """Names of the operators the partitioner left on the CPU that the
    cortex_m backend converts, in graph order."""
    graph = edge.exported_program().graph_module.graph
    candidates = [
        n
        for n in graph.nodes
        if n.op == "call_function" and not any(part in _name(n.target) for part in _NOT_FALLBACKS)
    ]
    if not candidates:
        return []
    converted = _converted_targets()
    return [n.name for n in candidates if n.target in converted]


def _half_converted(graph) -> list[str]:
    """Operators of the cortex_m set left as edge operators but fed integer
    tensors: their quantize/dequantize were folded away, their substitution
    was not made."""
    converted = _converted_targets()
    left = []
    for node in graph.nodes:
        if node.op != "call_function" or node.target not in converted:
            continue
        values = [arg.meta.get("val") for arg in node.all_input_nodes]
        if any(getattr(v, "dtype", None) in (torch.int8, torch.int16) for v in values):
            left.append(node.name)
    return left


def to_cortex_m(edge, family: str):
    """`edge` with its quantized fallbacks rewritten into cortex_m:: operators
    (a new EdgeProgramManager), or `edge` itself when it has none."""
    if not fallbacks(edge) or family not in HOST_CPU:
        return edge
    if _non_2d_convolutions(edge.exported_program().graph_module.graph):
        return edge
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager
    from executorch.backends.cortex_m.target_config import CortexM, CortexMTargetConfig
    from executorch.exir import EdgeCompileConfig, EdgeProgramManager

    config = CortexMTargetConfig(cpu=getattr(CortexM, HOST_CPU[family]))
    # On a copy: the passes change the program they are given.
    transformed = CortexMPassManager(copy.deepcopy(edge.exported_program()), target_config=config).transform()
    if _half_converted(transformed.graph_module.graph):
        return edge
    return EdgeProgramManager(
        {"forward": transformed},
        # As lowering.py: the quantized_decomposed and cortex_m operators are not core ATen.
        compile_config=EdgeCompileConfig(_check_ir_validity=False),
    )
