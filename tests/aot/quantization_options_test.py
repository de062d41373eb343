"""per_channel = False and io_quantization = "set_io" on a convolution and
a linear layer for the U55 (tests/aot/BUILD.bazel, conv_linear_u55*).

Each program was verified at build time against the TOSA reference model.
Here: the TOSA graph Vela compiled, as ExecuTorch serialised it, rescales
each convolution's accumulator with one multiplier per output channel, or
with one for the whole weight tensor per-tensor; the summaries name the
options only when they are not the defaults; and the SDK's quantizer is
ExecuTorch's own test pipelines' for the same settings
(EthosU55PipelineINT(per_channel_quantization=False,
symmetric_io_quantization=True)), compared on the converted graphs.
"""

from __future__ import annotations

import glob
import json

import aot_test_models
import numpy as np
import pytest
import torch
from tosa.Op import Op
from tosa.RescaleAttribute import RescaleAttribute
from tosa.TosaGraph import TosaGraph

from ethosu_sdk.aot import export, quantization
from ethosu_sdk.aot.targets import QuantMode, make_compile_spec, resolve_target

OUT_CHANNELS = (8, 10)  # the model's convolution's and linear layer's (aot_test_models._ConvLinear)


def _summary(name: str) -> dict:
    with open(f"tests/aot/{name}.summary.json") as f:
        return json.load(f)


# Operators that move data without changing it: a per-tensor rescale
# commutes with them, and ExecuTorch may rescale after them.
_DATA_MOVEMENT = (Op.TRANSPOSE, Op.RESHAPE)


def _rescale_multipliers(name: str) -> list[tuple[bool, int]]:
    """(per_channel, multiplier count) of the RESCALE that scales each
    CONV2D's accumulator (the linear layer is a CONV2D too) in the model's
    TOSA graphs: the first one its output reaches through data movement."""
    found = []
    for path in sorted(glob.glob(f"tests/aot/{name}.verify/partition*.tosa")):
        with open(path, "rb") as f:
            block = TosaGraph.GetRootAs(f.read(), 0).Regions(0).Blocks(0)
        tensors = {block.Tensors(i).Name(): block.Tensors(i) for i in range(block.TensorsLength())}
        operators = [block.Operators(i) for i in range(block.OperatorsLength())]
        reader = {op.Inputs(0): op for op in operators if op.InputsLength()}
        for conv in (op for op in operators if op.Op() == Op.CONV2D):
            op = reader[conv.Outputs(0)]
            while op.Op() in _DATA_MOVEMENT:
                op = reader[op.Outputs(0)]
            assert op.Op() == Op.RESCALE, f"{path}: a CONV2D's accumulator reaches operator {op.Op()}"
            table = op.Attribute()
            attribute = RescaleAttribute()
            attribute.Init(table.Bytes, table.Pos)
            multipliers = tensors[op.Inputs(1)]
            found.append((bool(attribute.PerChannel()), int(np.prod(multipliers.ShapeAsNumpy()))))
    return found


def test_per_channel_rescales_each_output_channel() -> None:
    assert sorted(_rescale_multipliers("conv_linear_u55")) == [(True, n) for n in OUT_CHANNELS]


def test_per_tensor_has_one_scale_per_weight_tensor() -> None:
    assert _rescale_multipliers("conv_linear_u55_per_tensor") == [(False, 1), (False, 1)]


def test_summary_keys_only_off_the_defaults() -> None:
    default, per_tensor, set_io = (_summary(f"conv_linear_u55{suffix}") for suffix in ("", "_per_tensor", "_set_io"))
    assert "per_channel" not in default and "io_quantization" not in default
    assert per_tensor["per_channel"] is False and "io_quantization" not in per_tensor
    assert set_io["io_quantization"] == "set_io" and "per_channel" not in set_io
    # int8 I/O is affine whether or not set_io annotates it.
    assert all(-128 <= t["zero_point"] <= 127 for t in set_io["inputs"] + set_io["outputs"])


def _qparams(graph: torch.fx.GraphModule) -> list[tuple[str, list[float], list[int]]]:
    """Every quantize/dequantize node's target with its scales and zero points, in graph order."""
    out = []
    for node in graph.graph.nodes:
        if node.op != "call_function" or "quantize_per" not in str(node.target):
            continue
        values = []
        for arg in node.args[1:3]:
            if isinstance(arg, torch.fx.Node):  # a per-channel parameter, held by the module
                arg = getattr(graph, arg.target)
            values.append(torch.as_tensor(arg).flatten().tolist())
        out.append((str(node.target), *values))
    return out


@pytest.mark.parametrize(
    "mode, scheme, pipeline_args",
    [
        ("int8", quantization.Scheme(per_channel=False), {"per_channel_quantization": False}),
        ("int8", quantization.Scheme(io_quantization="set_io"), {"symmetric_io_quantization": True}),
        (
            "a16w8",
            quantization.Scheme(per_channel=False, io_quantization="set_io"),
            {"a16w8_quantization": True, "per_channel_quantization": False, "symmetric_io_quantization": True},
        ),
    ],
)
def test_quantizer_is_executorchs_test_pipelines(mode: str, scheme: quantization.Scheme, pipeline_args: dict) -> None:
    from executorch.backends.arm.test.tester.test_pipeline import EthosU55PipelineINT
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    model, inputs = aot_test_models.conv_linear()
    model.eval()
    pipeline = EthosU55PipelineINT(model, inputs, [], run_on_fvp=False, **pipeline_args)
    quant_mode = QuantMode.parse(mode)
    compile_spec = make_compile_spec(resolve_target("ethos-u55-128", None, None), quant_mode)
    converted = []
    for quantizer in (pipeline.quantizer, quantization.make_quantizer(compile_spec, quant_mode, (), scheme)):
        prepared = prepare_pt2e(export.export_for_quantization(model, inputs), quantizer)
        with torch.no_grad():
            prepared(*inputs)
        converted.append(_qparams(convert_pt2e(prepared)))
    theirs, ours = converted
    assert theirs and ours == theirs
