"""Steers Vela (5.1.0, 5.2.0) around its CONV3D-reading-a-SLICE fault (vela_refusals.py
says what the fault is): the crop ExecuTorch would do inside the delegate is
done on the CPU instead, so the delegate's CONV3D reads a whole tensor.

A convolution reads none of the last `remainder - padding` elements of an
axis when `remainder = (size + 2*padding - dilation*(kernel-1) - 1) % stride`
exceeds the padding (ExecuTorch's SizeAdjustInputPass crops them to meet
TOSA's exact-size rule). `crop_conv3d_inputs` crops them in the exported
graph (exact: no output changes), and `KeepConv3dCropsOnCpu` keeps every
slice that feeds a 3-D convolution out of the Ethos-U partition, where Vela
would fold it into the CONV3D. On the CPU the crop is a portable slice_copy
between the input's dequantize and quantize, which share one scale: the int8
values pass through unchanged.
"""

from __future__ import annotations

from typing import Optional, Sequence

import torch

from ethosu_sdk.aot.workarounds import vela_workarounds

_CONV3D = (torch.ops.aten.conv3d.default, torch.ops.aten.convolution.default)
_SPATIAL_AXES = 3
_LAYER_META = ("nn_module_stack", "stack_trace")


def _triple(value) -> list[int]:
    values = [int(v) for v in value] if isinstance(value, (list, tuple)) else [int(value)]
    return values * _SPATIAL_AXES if len(values) == 1 else values


def _conv3d_geometry(node: torch.fx.Node) -> Optional[tuple[list[int], list[int], list[int]]]:
    """(stride, padding, dilation) of a 3-D, non-transposed convolution."""
    if node.op != "call_function" or node.target not in _CONV3D:
        return None
    x = node.args[0]
    if not isinstance(x, torch.fx.Node) or x.meta["val"].dim() != 5:
        return None
    if node.target is torch.ops.aten.convolution.default:
        stride, padding, dilation, transposed = node.args[3:7]
        if transposed:
            return None
    else:
        args = list(node.args) + [None] * 7
        stride, padding, dilation = args[3] or 1, args[4] or 0, args[5] or 1
    return _triple(stride), _triple(padding), _triple(dilation)


def crop_conv3d_inputs(graph_module: torch.fx.GraphModule) -> list[str]:
    """Crops each 3-D convolution's input to the elements it reads (see the
    module docstring); returns the convolutions changed."""
    changed: list[str] = []
    graph = graph_module.graph
    for node in list(graph.nodes):
        geometry = _conv3d_geometry(node)
        if geometry is None:
            continue
        x, weight = node.args[0], node.args[1]
        shape, kernel = list(x.meta["val"].shape), list(weight.meta["val"].shape)
        cropped = x
        for axis, (stride, pad, dilation) in enumerate(zip(*geometry)):
            dim = axis + 2
            remainder = (shape[dim] + 2 * pad - dilation * (kernel[dim] - 1) - 1) % stride
            if remainder <= pad:
                continue
            shape[dim] -= remainder - pad
            with graph.inserting_before(node):
                cropped = graph.call_function(torch.ops.aten.slice.Tensor, (cropped, dim, 0, shape[dim]))
            # The convolution's module, so reports name the layer; not its
            # source_fn_stack, which would make the quantizer see a convolution.
            cropped.meta.update({k: node.meta[k] for k in _LAYER_META if k in node.meta})
            cropped.meta["val"] = x.meta["val"][tuple(slice(0, n) for n in shape)]
        if cropped is not x:
            node.replace_input_with(x, cropped)
            changed.append(node.name)
    if changed:
        graph.lint()
        graph_module.recompile()
    return changed


_PASS_THROUGH = ("quantize_per_tensor", "dequantize_per_tensor", "slice_copy")


def _name(node: torch.fx.Node) -> str:
    return str(getattr(node.target, "__name__", node.target))


def _reads_as_conv3d_input(user: torch.fx.Node, value: torch.fx.Node) -> bool:
    if "convolution" not in _name(user) or not user.args or user.args[0] is not value:
        return False
    shape = value.meta.get("val")
    return shape is not None and shape.dim() == 5


def _feeds_conv3d(node: torch.fx.Node) -> bool:
    """True when `node` reaches a 3-D convolution's input through
    quantize/dequantize and slices only."""
    return vela_workarounds.reaches(
        node, _reads_as_conv3d_input, lambda user: any(step in _name(user) for step in _PASS_THROUGH)
    )


def keep_crops_on_cpu() -> Sequence[object]:
    """The partitioner's additional check: slices feeding a 3-D convolution
    are not delegated."""
    from torch.fx.passes.operator_support import OperatorSupportBase

    class KeepConv3dCropsOnCpu(OperatorSupportBase):
        def is_node_supported(self, submodules, node: torch.fx.Node) -> bool:
            if node.op != "call_function" or "slice_copy" not in str(node.target):
                return True
            return not _feeds_conv3d(node)

    return [KeepConv3dCropsOnCpu()]
