"""TOSA patterns Vela miscompiles (5.1.0 and 5.2.0; vela_faults.py) where no exact rewrite steers it
around: refused before Vela runs, with one line naming the fault.

Vela 5.1.0 and 5.2.0, CONV3D reading a SLICE (issue 34, conformance case
`test_convolution_3d_u85_INT[3x3_1x3x8x9_st3_pd0_dl1_needs_adjust_pass]`):
ExecuTorch crops a Conv3d's input with a TOSA SLICE when an input size is
not a whole number of strides past the kernel and the padding cannot absorb
the rest. Vela moves the SLICE into its reader
(`MoveSplitSliceToConsumer`), and its CONV3D decomposition
(`DecomposeConv3D` in regor/compiler/scheduler_decompose.cpp) then takes the
slice's shape as the IFM's own shape and resets its offset: every per-depth
Conv2D reads the uncropped tensor as if it were dense with the cropped
shape. For the conformance case (IFM 8x9x8x3 cropped to 6x9x6x3, stride 3)
Vela's register stream sets IFM_STRIDE_Y 18 (6 columns of 3) and steps
IFM_BASE0 by 162 (9x6x3) per depth slice, where the tensor the previous
Transpose wrote has rows of 24 bytes and slices of 216: all 36 outputs
differ from the TOSA reference model, and the functional NPU model executes
exactly those registers. A CONV3D with kernel depth 1, depth stride 1 and no
depth padding is rewritten to a Conv2D before that decomposition and is not
affected. The SDK crops such inputs on the CPU (vela_conv3d_crop.py), so
this check fires only where a SLICE reaches a CONV3D some other way.
"""

from __future__ import annotations

from typing import Optional

from ethosu_sdk.aot.workarounds import vela_faults

VELA_CONV3D_SLICE = vela_faults.CONV3D_SLICE.name


class VelaFaultError(RuntimeError):
    """The TOSA graph holds a pattern the installed Vela is known to compile wrongly."""


def _shape(tensors: dict, name: str) -> tuple[int, ...]:
    return tensors.get(name, ())


def conv3d_slice_fault(tosa_flatbuffer: bytes) -> Optional[str]:
    """The fault's one-line description when a CONV3D that Vela decomposes
    per depth slice reads a SLICE's result; None otherwise."""
    from tosa.Conv3dAttribute import Conv3dAttribute
    from tosa.Op import Op
    from tosa.TosaGraph import TosaGraph

    graph = TosaGraph.GetRootAs(tosa_flatbuffer, 0)
    for r in range(graph.RegionsLength()):
        region = graph.Regions(r)
        for b in range(region.BlocksLength()):
            block = region.Blocks(b)
            tensors = {}
            for t in range(block.TensorsLength()):
                tensor = block.Tensors(t)
                tensors[tensor.Name().decode()] = (
                    tuple(int(d) for d in tensor.ShapeAsNumpy()) if tensor.ShapeLength() else ()
                )
            sliced: dict[str, str] = {}  # SLICE output -> its input
            for o in range(block.OperatorsLength()):
                op = block.Operators(o)
                if op.Op() == Op.SLICE:
                    source, result = op.Inputs(0).decode(), op.Outputs(0).decode()
                    if _shape(tensors, source) != _shape(tensors, result):
                        sliced[result] = source
                if op.Op() != Op.CONV3D or op.Inputs(0).decode() not in sliced:
                    continue
                ifm, weights = op.Inputs(0).decode(), op.Inputs(1).decode()
                attribute = Conv3dAttribute()
                table = op.Attribute()
                attribute.Init(table.Bytes, table.Pos)
                pad, stride = attribute.PadAsNumpy(), attribute.StrideAsNumpy()
                kernel_depth = _shape(tensors, weights)[1]  # weights are [O, KD, KH, KW, I]
                if kernel_depth == 1 and stride[0] == 1 and pad[0] == 0 and pad[1] == 0:
                    continue  # Vela makes it a Conv2D, which reads slices correctly
                return (
                    f"Vela {vela_faults.installed_version()} miscompiles CONV3D {op.Outputs(0).decode()}: "
                    "its input is a SLICE "
                    f"{_shape(tensors, sliced[ifm])} -> {_shape(tensors, ifm)}, which Vela's CONV3D "
                    "decomposition reads as a dense tensor of the sliced shape, so every output is wrong "
                    f"({VELA_CONV3D_SLICE}, python/ethosu_sdk/aot/workarounds/vela_refusals.py). ExecuTorch adds this "
                    "SLICE when (size + 2*padding - dilation*(kernel-1) - 1) is not a multiple of the "
                    "stride in depth, height or width: choose input sizes or padding that make it one"
                )
    return None


def check(index: int, tosa_flatbuffer: bytes) -> None:
    """Raises VelaFaultError naming the fault if partition `index` holds one
    that the installed Vela has (vela_faults.py)."""
    fault = conv3d_slice_fault(tosa_flatbuffer) if vela_faults.applies(vela_faults.CONV3D_SLICE) else None
    if fault:
        raise VelaFaultError(f"partition {index}: {fault}")
