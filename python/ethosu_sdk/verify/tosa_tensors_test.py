"""tosa_tensors on a graph one of whose outputs is a constant, as
ExecuTorch emits for a value it computes at AOT time
(`aten_full_default_pre_computed`, test_div_tensor_mode int16_trunc): the
reference model returns it beside the operators' results."""

import numpy as np
import pytest
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


def _scatter(indices: list[int]) -> bytes:
    """TOSA SCATTER of two rows into a [1, 4, 2] tensor at `indices`."""
    graph = ts.TosaSerializer("", targetMajor=1, targetMinor=0, targetPatch=0, targetDraft=False)
    graph.addInputTensor(ts.TosaSerializerTensor("values", [1, 4, 2], ts.DType.INT8, data=None))
    graph.addInputTensor(ts.TosaSerializerTensor("rows", [1, 2, 2], ts.DType.INT8, data=None))
    where = graph.addConst([1, 2], ts.DType.INT32, indices, name="indices")
    out = graph.addIntermediate([1, 4, 2], ts.DType.INT8)
    attribute = ts.TosaSerializerAttribute()
    attribute.ScatterAttribute()
    graph.addOperator(ts.Op.SCATTER, inputs=["values", where.name, "rows"], outputs=[out.name], attributes=attribute)
    graph.addOutputTensor(out)
    return graph.serialize()


def test_repeated_scatter_indices_are_named_not_a_bare_status() -> None:
    values = np.zeros((1, 4, 2), np.int8)
    rows = np.array([[[1, 2], [3, 4]]], np.int8)
    reference = tosa_tensors.reference_tensors(_scatter([0, 2]), [values, rows])
    np.testing.assert_array_equal(list(reference.values())[-1], [[[1, 2], [0, 0], [3, 4], [0, 0]]])
    # The same graph writing row 1 twice: the TOSA spec leaves it undefined.
    with pytest.raises(RuntimeError, match="UNPREDICTABLE .* SCATTER writes one position twice"):
        tosa_tensors.reference_tensors(_scatter([1, 1]), [values, rows])
