"""compare_layers on bool tensors: a U85 comparison's mask (all bits set
for true), which Vela keeps where only SELECT reads it, is TOSA's true.
And on a stream with no layer: DMA copies only, or NPU operations that the
debug database does not list."""

import numpy as np
import pytest

from ethosu_sdk.verify.compare import compare_layers
from ethosu_sdk.verify.layer_trace import TracedOperation
from ethosu_sdk.verify.vela_debug_db import Layer, TensorPlacement

# TOSA GREATER(x, 0) for torch.sign's mixed_signs case, x = [-2, -1, 0, 1, 2].
_REFERENCE = np.array([False, False, False, True, True])
_CMP_GT = 1  # any opcode: the comparison does not look at it


def _compare(npu_values: list[int], reference: np.ndarray) -> dict[int, int]:
    ofm = np.array(npu_values, np.int32).reshape(1, 1, -1)
    op = TracedOperation(0, _CMP_GT, 1, ofm, np.arange(ofm.size, dtype=np.uint32).reshape(ofm.shape))
    layers = [Layer(command_offset=0, scheduled_id=0, operator="Greater", tensor="greater")]
    [result] = compare_layers(layers, [op], {"greater": reference}, {})
    assert result.problem is None and result.elements == reference.size
    return result.histogram


def test_a_comparison_mask_is_a_true_bool() -> None:
    assert _compare([0, 0, 0, -1, -1], _REFERENCE) == {}
    assert _compare([0, 0, 0, 255, 255], _REFERENCE) == {}


def test_tosa_zero_one_bool_still_compares() -> None:
    assert _compare([0, 0, 0, 1, 1], _REFERENCE) == {}


def test_a_wrong_bool_differs() -> None:
    # A mask where false is expected, a true that is neither 1 nor a mask,
    # and a missing true.
    assert _compare([-1, 0, 0, 2, 0], _REFERENCE) == {-1: 1, 1: 2}


def test_an_integer_tensor_keeps_its_values() -> None:
    # Only bool tensors read a mask as true: int8 -1 against 1 differs.
    assert _compare([0, 0, 0, -1, -1], _REFERENCE.astype(np.int8)) == {-2: 2}


def test_a_stream_of_dma_copies_only_has_no_layer_to_compare() -> None:
    # Vela's U85 Gather of an int32 unfold (issue 34): an empty queue table
    # and no NPU operation in the trace; the outputs are compared instead.
    assert compare_layers([], [], {"gather": _REFERENCE}, {}) == []


def test_npu_operations_without_layers_are_an_error() -> None:
    ofm = np.zeros((1, 1, 5), np.int32)
    op = TracedOperation(0, _CMP_GT, 1, ofm, np.arange(ofm.size, dtype=np.uint32).reshape(ofm.shape))
    with pytest.raises(ValueError, match="1 NPU operations ran, but the debug database lists no layers"):
        compare_layers([], [op], {"greater": _REFERENCE}, {})


def _square_transpose(ofm_values: np.ndarray, want: np.ndarray) -> dict[int, int]:
    # The U55 writes a Transpose through strides: its OFM, in the
    # operation's order, lands at these offsets, where memory holds the
    # tensor in its own order. Square (2x2x2), so both orders have its shape.
    order = np.arange(want.size, dtype=np.uint32).reshape(1, 2, 2, 2).transpose(0, 1, 3, 2).reshape(2, 2, 2)
    op = TracedOperation(0, _CMP_GT, 1, ofm_values.reshape(2, 2, 2).astype(np.int32), order.copy())
    layers = [Layer(command_offset=0, scheduled_id=0, operator="Transpose", tensor="k_transposed")]
    placements = {"k_transposed": [TensorPlacement(start=0, size=want.size, layout="NHWC", dtype="Int8")]}
    [result] = compare_layers(layers, [op], {"k_transposed": want}, placements)
    assert result.problem is None and result.elements == want.size
    return result.histogram


def test_a_square_transpose_is_read_as_memory_holds_it() -> None:
    # An attention's K at 2 heads x 2 positions x 2 (test_multihead_attention
    # [randn_2d] on U55, whose outputs were exact).
    want = np.array([-119, -48, -7, -11, -128, -98, 127, 89], np.int8).reshape(1, 2, 2, 2)
    ofm = want.reshape(-1)[np.arange(8).reshape(1, 2, 2, 2).transpose(0, 1, 3, 2).reshape(-1)]
    assert _square_transpose(ofm, want) == {}
    ofm[0] += 3  # a wrong value differs whichever order is read
    assert _square_transpose(ofm, want) == {3: 1}


def test_vela_namesake_of_a_tosa_tensor_is_not_compared_with_it() -> None:
    # test_add_tensor_u65_INT[1d_randn] under Vela 5.2: the RESCALE of x to
    # int32 becomes an ADD and a MUL, and the MUL's int32 OFM (in SRAM) is
    # named after the graph's int8 output, which the last ADD writes.
    want = np.array([-12, 3, 127, -128, 0, 45, -7, 99], np.int8)
    intermediate = np.array([1 << 30, -(1 << 29), 7, 8, 9, 10, 11, 12], np.int32)

    def op(offset: int, values: np.ndarray) -> TracedOperation:
        ofm = values.astype(np.int32).reshape(1, 1, -1)
        return TracedOperation(offset, _CMP_GT, 1, ofm, np.arange(ofm.size, dtype=np.uint32).reshape(ofm.shape))

    layers = [
        Layer(command_offset=404, scheduled_id=1, operator="Mul", tensor="out", ofm_dtype="Int32"),
        Layer(command_offset=664, scheduled_id=2, operator="Add", tensor="out", ofm_dtype="Int8"),
    ]
    placements = {
        "out": [
            TensorPlacement(start=0, size=8, layout="NHWC", dtype="Int8"),
            TensorPlacement(start=0, size=32, layout="NHCWB16", dtype="Int32"),
        ]
    }
    mul, add = compare_layers(layers, [op(404, intermediate), op(664, want)], {"out": want}, placements)
    assert mul.internal and mul.ok
    assert add.problem is None and add.elements == want.size and add.exact
    # The int8 result is still compared: a wrong value differs.
    wrong = want.astype(np.int32)
    wrong[2] = 126
    _, add = compare_layers(layers, [op(404, intermediate), op(664, wrong)], {"out": want}, placements)
    assert add.histogram == {-1: 1}
    # With one placement of the name (the int32 one, which a name-keyed
    # table kept) there is no namesake: both layers are one tensor read from
    # that placement, and it differs, as before this rule.
    single = {"out": placements["out"][1:]}
    [both] = compare_layers(layers, [op(404, intermediate), op(664, want)], {"out": want}, single)
    assert not both.internal and both.operations == 2 and not both.exact


def test_a_tensor_placed_twice_at_one_width_is_read_where_it_ends_up() -> None:
    # test_convolution_2d_u85_INT_depthwise[..., per_channel_quant=False]:
    # Vela lists tosa_rescale_default twice, both int8 (at 0x100, then at 0x0
    # where the last Transpose writes it); the layer is read from the last.
    want = np.arange(-4, 4, dtype=np.int8)
    half = want.size // 2
    ops = [
        TracedOperation(
            offset,
            _CMP_GT,
            1,
            want[part].astype(np.int32).reshape(1, 1, -1),
            np.arange(part.start, part.stop, dtype=np.uint32).reshape(1, 1, -1),
        )
        for offset, part in ((100, slice(0, half)), (200, slice(half, want.size)))
    ]
    layers = [
        Layer(command_offset=offset, scheduled_id=i, operator="Transpose", tensor="t", ofm_dtype="Int8")
        for i, offset in enumerate((100, 200))
    ]
    placements = {
        "t": [
            TensorPlacement(start=0x100, size=want.size, layout="NHWC", dtype="Int8"),
            TensorPlacement(start=0, size=want.size, layout="NHWC", dtype="Int8"),
        ]
    }
    [result] = compare_layers(layers, ops, {"t": want}, placements)
    assert result.problem is None and result.operations == 2 and result.exact
