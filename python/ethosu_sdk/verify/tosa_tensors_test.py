"""tosa_tensors on a graph one of whose outputs is a constant, as
ExecuTorch emits for a value it computes at AOT time
(`aten_full_default_pre_computed`, test_div_tensor_mode int16_trunc): the
reference model returns it beside the operators' results."""

import numpy as np
import tosa_serializer as ts

from ethosu_sdk.verify import tosa_tensors

CONSTANT = "aten_full_default_pre_computed"


def _graph_with_a_constant_output() -> bytes:
    graph = ts.TosaSerializer("", targetMajor=1, targetMinor=0, targetPatch=0, targetDraft=False)
    graph.addInputTensor(ts.TosaSerializerTensor("x", [2, 3], ts.DType.INT8, data=None))
    constant = graph.addConst([1, 1], ts.DType.INT8, [8], name=CONSTANT)
    copied = graph.addIntermediate([2, 3], ts.DType.INT8)
    identity = ts.TosaSerializerAttribute()
    identity.IdentityAttribute()
    graph.addOperator(ts.Op.IDENTITY, inputs=["x"], outputs=[copied.name], attributes=identity)
    graph.addOutputTensor(copied)
    graph.addOutputTensor(constant)
    return graph.serialize()


def test_a_constant_graph_output_is_among_the_reference_tensors() -> None:
    graph = _graph_with_a_constant_output()
    _, outputs = tosa_tensors.graph_io(graph)
    assert outputs[1] == CONSTANT
    x = np.arange(-3, 3, dtype=np.int8).reshape(2, 3)
    reference = tosa_tensors.reference_tensors(graph, [x])
    assert all(name in reference for name in outputs)
    np.testing.assert_array_equal(reference[outputs[0]], x)
    np.testing.assert_array_equal(reference[CONSTANT], np.array([[8]], np.int8))
