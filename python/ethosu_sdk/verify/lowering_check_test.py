"""lowering_check.compare on planted differences: a PyTorch NCHW tensor
against its TOSA NHWC counterpart; at an output a one-step rounding
difference tolerated and a two-step one reported with its module; inside
the graph a few steps of drift tolerated and a wide or far one reported;
shapes that cannot correspond."""

from typing import Any

import numpy as np

from ethosu_sdk.verify import executorch_faults, lowering_check


def _entry(**kwargs) -> dict:
    entry = {
        "node": "q1",
        "tosa": "t1",
        "output": None,
        "module": "block.act",
        "module_type": "ReLU",
        "op": "relu",
        "source": "model.py:7",
    }
    entry.update(kwargs)
    return entry


def _nchw(shape=(1, 3, 4, 5), seed=0) -> np.ndarray:
    return np.random.default_rng(seed).integers(-128, 128, shape, dtype=np.int8)


def test_nhwc_tensor_matches_its_nchw_pytorch_tensor() -> None:
    pytorch = _nchw()
    (result,) = lowering_check.compare([_entry()], [pytorch], {"t1": pytorch.transpose(0, 2, 3, 1)}, [])
    assert result.note is None and result.elements == pytorch.size and result.histogram == {}
    assert not result.diverges


def test_output_one_step_is_tolerated_two_steps_diverge() -> None:
    pytorch = _nchw()
    tosa = pytorch.transpose(0, 2, 3, 1).astype(np.int16)
    tosa[0, 1, 2, 0] += 1
    reference = {"out": tosa.copy()}
    (one,) = lowering_check.compare([_entry(output=0)], [pytorch], reference, ["out"])
    assert one.histogram == {1: 1} and not one.diverges
    tosa[0, 3, 4, 2] -= 2
    (two,) = lowering_check.compare([_entry(output=0)], [pytorch], {"out": tosa}, ["out"])
    assert two.histogram == {1: 1, -2: 1} and two.diverges and two.beyond_tolerance == 1
    line = lowering_check.describe(two, 0)
    assert line.startswith("lowering (TOSA vs PyTorch): first diverging tensor `block.act` (ReLU, relu at model.py:7)")


def test_intermediate_drift_passes_a_lowering_bug_does_not() -> None:
    pytorch = _nchw((1, 10, 10, 10), seed=2)
    tosa = pytorch.transpose(0, 2, 3, 1).astype(np.int16)
    tosa[0, 0, :, 0] += 3  # 10 of 1000 elements 3 steps off: what drift does
    (drift,) = lowering_check.compare([_entry()], [pytorch], {"t1": tosa.copy()}, [])
    assert drift.max_steps == 3 and not drift.diverges
    tosa[0, 1, :, :] -= 2  # another 10%: no drift spreads like that
    (spread,) = lowering_check.compare([_entry()], [pytorch], {"t1": tosa.copy()}, [])
    assert spread.diverges
    tosa = pytorch.transpose(0, 2, 3, 1).astype(np.int16)
    tosa[0, 0, 0, 0] -= lowering_check.DRIFT_MAX_STEPS + 1  # one element, far off
    (far,) = lowering_check.compare([_entry()], [pytorch], {"t1": tosa}, [])
    assert far.diverges


def test_square_shape_takes_the_layout_that_fits() -> None:
    # (1, 4, 4, 4): both layouts have the tensor's shape.
    pytorch = _nchw((1, 4, 4, 4), seed=1)
    (result,) = lowering_check.compare([_entry()], [pytorch], {"t1": pytorch.transpose(0, 2, 3, 1)}, [])
    assert result.histogram == {}


def test_output_entry_reads_the_graph_output_by_position() -> None:
    pytorch = _nchw()
    entries = [_entry(tosa="other", output=1)]
    reference = {"out0": np.zeros((1, 4, 5, 3), np.int8), "out1": pytorch.transpose(0, 2, 3, 1)}
    (result,) = lowering_check.compare(entries, [pytorch], reference, ["out0", "out1"])
    assert result.tensor == "out1" and result.output == 1 and result.histogram == {}


def test_an_intermediate_mapped_onto_an_output_tensor_is_not_compared() -> None:
    # conv1(x) - conv2(x) (ExecuTorch's test_sub dual_conv): provenance
    # maps conv1's result onto the sub's output tensor; the output's own
    # entry compares that tensor.
    out = _nchw(seed=1)
    entries = [_entry(node="conv1", tosa="out0"), _entry(node="sub", tosa="out0", output=0)]
    reference = {"out0": out.transpose(0, 2, 3, 1)}
    conv1, sub = lowering_check.compare(entries, [_nchw(seed=2), out], reference, ["out0"])
    assert conv1.note == "its TOSA tensor is delegate output 0's" and not conv1.diverges
    assert sub.note is None and sub.elements == out.size and sub.histogram == {}
    # A wrong output still diverges.
    _, sub = lowering_check.compare(entries, [_nchw(seed=2), _nchw(seed=3)], reference, ["out0"])
    assert sub.diverges


def test_an_intermediate_in_another_order_is_not_compared_an_output_is() -> None:
    # An attention's K: (heads, seq, dim) with seq == dim, so K and its
    # transpose have one shape (values from test_multihead_attention
    # [randn_2d] on U55).
    pytorch = np.array([-127, 104, -97, -19, 127, 41, -113, -48], np.int8).reshape(2, 2, 2)
    tosa = pytorch.transpose(0, 2, 1).copy()
    (inner,) = lowering_check.compare([_entry()], [pytorch], {"t1": tosa}, [])
    assert inner.note == lowering_check.LAYOUT_NOTE and not inner.diverges
    (out,) = lowering_check.compare([_entry(output=0)], [pytorch], {"out": tosa}, ["out"])
    assert out.note is None and out.diverges
    # Other values (one element changed) are compared as before.
    tosa[0, 0, 1] += 50
    (changed,) = lowering_check.compare([_entry()], [pytorch], {"t1": tosa}, [])
    assert changed.note is None and changed.diverges


def test_tensors_that_cannot_correspond_are_not_compared() -> None:
    results = lowering_check.compare(
        [_entry(), _entry(tosa="absent")], [_nchw(), _nchw()], {"t1": np.zeros((7,), np.int8)}, []
    )
    assert [r.note is not None for r in results] == [True, True]
    assert lowering_check.first_divergence(results) is None


def test_sixteen_bit_drift_is_judged_in_sixteenths_of_an_int8_step() -> None:
    pytorch = np.random.default_rng(3).integers(-30000, 30000, (1, 10, 10, 10), dtype=np.int16)
    tosa = pytorch.transpose(0, 2, 3, 1).astype(np.int32)
    tosa[0, :2, :, :] += 4  # 20% of the elements 4 int16 steps off: A16W8 drift
    wide = _entry(qmin=-32768, qmax=32767)
    (drift,) = lowering_check.compare([wide], [pytorch], {"t1": tosa.copy()}, [])
    assert drift.wide and drift.max_steps == 4 and not drift.diverges
    (narrow,) = lowering_check.compare([_entry(qmin=-128, qmax=127)], [pytorch], {"t1": tosa.copy()}, [])
    assert narrow.diverges  # the same in int8 steps is no drift
    tosa[0, 0, 0, 0] -= 2000  # one element far off, as a dropped clamp is
    (far,) = lowering_check.compare([wide], [pytorch], {"t1": tosa}, [])
    assert far.diverges


def test_a_reduction_inside_a_decomposed_operator_is_not_compared() -> None:
    # A layer norm's per-row step, then its result: only the result is compared.
    step, result = _nchw((1, 1, 4, 1), seed=4), _nchw((1, 1, 4, 5), seed=5)
    layer_norm = {"module": "norm1", "op": "layer_norm", "root": "layer_norm"}
    entries = [_entry(tosa="t_step", step_of="layer_norm", **layer_norm), _entry(tosa="t_result", **layer_norm)]
    reference = {"t_step": step + 100, "t_result": result.copy()}
    first, second = lowering_check.compare(entries, [step, result], reference, [])
    assert first.note == "a step inside layer_norm's decomposition" and not first.diverges
    assert second.note is None and second.histogram == {}


def test_a_step_of_the_results_size_is_not_compared_either() -> None:
    # A softmax's exponentials have its result's shape: no size tells them
    # apart, the AOT step's mark does (test_softmax u85 [rand]: 89 steps).
    step, result = _nchw((1, 2, 5, 8), seed=8), _nchw((1, 2, 5, 8), seed=9)
    softmax = {"module": "softmax", "op": "softmax.int", "root": "softmax"}
    entries = [_entry(tosa="t_exp", step_of="softmax", **softmax), _entry(tosa="t_result", **softmax)]
    reference = {"t_exp": step + 89, "t_result": result.copy()}
    first, second = lowering_check.compare(entries, [step, result], reference, [])
    assert first.note is not None and not first.diverges
    assert second.note is None and second.histogram == {}
    # The result itself is still judged: a fault there fails.
    reference["t_result"] = result.astype(np.int16) + 20
    _, wrong = lowering_check.compare(entries, [step, result], reference, [])
    assert wrong.diverges


def test_a_decomposed_operator_whose_result_is_a_delegate_output() -> None:
    # A softmax's sum, then the softmax as the delegate's output.
    step, result = _nchw((1, 1, 1, 1), seed=6), _nchw((1, 1, 1, 10), seed=7)
    softmax = {"module": "", "op": "softmax.int", "root": "softmax"}
    entries = [_entry(tosa="t_sum", step_of="softmax", **softmax), _entry(tosa=None, output=0, **softmax)]
    reference = {"t_sum": step + 100, "out": result.copy()}
    first, second = lowering_check.compare(entries, [step, result], reference, ["out"])
    assert first.note == "a step inside softmax.int's decomposition"
    assert second.output == 0 and second.note is None and second.histogram == {}


def test_a_known_executorch_fault_is_named_and_still_fails() -> None:
    # test_neg u55 A16W8 [rank_4_randn_pos]: NEGATE without the RESCALE
    # between its scales, every element 4 steps off.
    pytorch = np.random.default_rng(10).integers(24000, 32000, (1, 4, 4, 4), dtype=np.int16)
    tosa = -(pytorch.astype(np.int32) + 4)
    entry = _entry(output=0, op="neg", module="", module_type="Neg", source=None, qmin=-32767, qmax=32767)
    (wide,) = lowering_check.compare([entry], [-pytorch.astype(np.int32)], {"out": tosa}, ["out"])
    assert wide.diverges
    assert lowering_check.describe(wide, 0).endswith("; a known ExecuTorch fault: " + executorch_faults.FAULTS[0].what)
    # The same in int8 is no known fault of ExecuTorch's: no such name.
    (narrow,) = lowering_check.compare([dict(entry, qmin=-128, qmax=127)], [-pytorch], {"out": tosa}, ["out"])
    assert narrow.diverges and "ExecuTorch" not in lowering_check.describe(narrow, 0)


def test_a_sixteen_bit_table_output_is_allowed_sixteen_steps_and_no_more() -> None:
    # test_tanh 16a8w u85 [ramp]: the TOSA graph's output is computed
    # through an int16 TABLE (tosa_tables.py); 2 steps off PyTorch pass.
    pytorch = np.arange(-80, 80, dtype=np.int16).reshape(1, 160) * 200
    entry = _entry(output=0, op="tanh", module="tanh", module_type="Tanh", source=None, qmin=-32768, qmax=32767)
    for steps, diverges in ((2, False), (16, False), (17, True)):
        tosa = pytorch.astype(np.int32)
        tosa[0, 7] += steps
        (result,) = lowering_check.compare([entry], [pytorch], {"out": tosa}, ["out"], {"out"})
        assert result.through_table and result.tolerance == 16
        assert result.diverges is diverges, steps
    assert "by more than 16 steps: a 16-bit TABLE's interpolation (up to 17)" in lowering_check.describe(result, 0)


def test_no_allowance_without_a_table_or_for_an_eight_bit_output() -> None:
    pytorch = np.arange(-80, 80, dtype=np.int16).reshape(1, 160) * 200
    tosa = pytorch.astype(np.int32)
    tosa[0, 3] += 2
    wide = _entry(output=0, op="neg", module_type="Neg", qmin=-32768, qmax=32767)
    # A 16-bit output 2 steps off, not computed through a TABLE: one step.
    (plain,) = lowering_check.compare([wide], [pytorch], {"out": tosa}, ["out"], {"other"})
    assert not plain.through_table and plain.diverges
    assert "by more than 1 step (up to 2)" in lowering_check.describe(plain, 0)
    # An 8-bit output after a 16-bit table keeps int8's one step.
    (narrow,) = lowering_check.compare([dict(wide, qmin=-128, qmax=127)], [pytorch], {"out": tosa}, ["out"], {"out"})
    assert not narrow.through_table and narrow.diverges


# ExecuTorch's test_rshift U55 int32 case (issue 34): x >> s in PyTorch
# (floor) and what the TOSA reference model gives for ExecuTorch's U55
# lowering of it, ARITHMETIC_RIGHT_SHIFT with round = True.
_RSHIFT_X = np.array([42, 93, 96, 47, 64, 21, 11, 76, 14, 31, 81, 84, 48, 94, 28, 91, 28, 13], np.int32)
_RSHIFT_S = np.array([4, 3, 1, 4, 1, 4, 4, 1, 4, 4, 4, 0, 1, 2, 3, 0, 0, 0], np.int32)
_RSHIFT_TOSA_ROUNDED = np.array([3, 12, 48, 3, 32, 1, 1, 38, 1, 2, 5, 84, 24, 24, 4, 91, 28, 13], np.int32)


def test_an_integer_output_is_compared_exactly() -> None:
    import torch

    pytorch = (torch.from_numpy(_RSHIFT_X) >> torch.from_numpy(_RSHIFT_S)).numpy()
    entry = _entry(output=0, exact=True, op="bitwise_right_shift", module_type="RshiftTensor")
    (same,) = lowering_check.compare([entry], [pytorch], {"out": pytorch.copy()}, ["out"])
    assert same.histogram == {} and not same.diverges
    (rounded,) = lowering_check.compare([entry], [pytorch], {"out": _RSHIFT_TOSA_ROUNDED}, ["out"])
    assert rounded.max_steps == 1 and rounded.diverges and rounded.beyond_tolerance == 8
    assert "compared exactly" in lowering_check.describe(rounded, 0)
    # The same one step at a quantized output is rounding, tolerated.
    (quantized,) = lowering_check.compare([_entry(output=0)], [pytorch], {"out": _RSHIFT_TOSA_ROUNDED}, ["out"])
    assert not quantized.diverges


def _wide(shape=(1, 16), seed=3) -> np.ndarray:
    return np.random.default_rng(seed).integers(-20000, 20000, shape).astype(np.int16)


# The pattern sweep's A16W8 measurements (bench/RESULTS.md): a producer at
# 0.000774 per int16 step feeding an add whose result is at 0.000244.
PRODUCER_SCALE, RESULT_SCALE = 0.000774, 0.000244


def _sum_entries(operand_node: str = "q_producer") -> list[dict]:
    producer = _entry(node="q_producer", tosa="t_producer", scale=PRODUCER_SCALE, qmin=-32768, qmax=32767)
    result = _entry(
        node="q_add",
        tosa=None,
        output=0,
        op="add",
        scale=RESULT_SCALE,
        qmin=-32768,
        qmax=32767,
        combines={
            "kind": "sum",
            "operands": [{"node": operand_node, "magnitude": 0.9}, {"node": None, "magnitude": 1.0}],
            # lowering_reference.carry_limit: ceil(0.000774 / 0.000244).
            "limit": 4,
        },
    )
    return [producer, result]


def test_a_sum_carries_its_operands_one_step_scaled() -> None:
    producer, result = _wide(seed=4), _wide(seed=5)
    tosa_producer, tosa_result = producer.copy(), result.copy()
    tosa_producer[0, 3] += 1  # one producer step: 3.17 result steps
    tosa_result[0, 3] += 4
    reference = {"t_producer": tosa_producer, "out": tosa_result}
    first, second = lowering_check.compare(_sum_entries(), [producer, result], reference, ["out"])
    assert first.max_steps == 1 and not first.diverges
    assert second.carried == 4 and second.tolerance == 5 and second.max_steps == 4 and not second.diverges
    assert "4 carried from its operands' differences" in second.rule()
    # Six steps are beyond what one producer step explains.
    tosa_result[0, 3] += 2
    _, six = lowering_check.compare(_sum_entries(), [producer, result], reference, ["out"])
    assert six.diverges


def test_nothing_is_carried_from_an_operand_that_matches_or_was_not_compared() -> None:
    producer, result = _wide(seed=6), _wide(seed=7)
    tosa_result = result.copy()
    tosa_result[0, 0] += 2
    # The producer matches PyTorch: its add is held to one step.
    _, held = lowering_check.compare(
        _sum_entries(), [producer, result], {"t_producer": producer.copy(), "out": tosa_result}, ["out"]
    )
    assert held.carried == 0 and held.diverges
    # An operand the check has no entry for carries nothing either.
    _, unknown = lowering_check.compare(
        _sum_entries("q_elsewhere"), [producer, result], {"t_producer": producer.copy(), "out": tosa_result}, ["out"]
    )
    assert unknown.carried == 0 and unknown.diverges


def test_a_product_weighs_each_difference_by_the_other_operand() -> None:
    compared = {"q_a": lowering_check.LoweredTensor("t_a", "q_a", scale=0.001, histogram={1: 2}, elements=16)}
    operands: list[dict[str, Any]] = [{"node": "q_a", "magnitude": 2.0}, {"node": None, "magnitude": 3.0}]
    combines = {"kind": "product", "operands": operands, "limit": 100}
    # |da| |b| + (|a| + |da|) |db| = 0.001 * 3 + 2.001 * 0 = 0.003: 3 steps of 0.001.
    assert lowering_check.carried_steps(combines, 0.001, compared) == 3
    compared["q_b"] = lowering_check.LoweredTensor("t_b", "q_b", scale=0.01, histogram={-2: 1}, elements=16)
    operands[1]["node"] = "q_b"
    # 0.001 * 3 + 2.001 * 0.02 = 0.04302: 44 steps of 0.001 (rounded up).
    assert lowering_check.carried_steps(combines, 0.001, compared) == 44


def test_never_more_is_carried_than_operands_one_step_off_carry() -> None:
    # Two steps of the producer measured: 7 result steps, but its limit
    # (what the expected tensor file allows on the board) is 4.
    compared = {"q_p": lowering_check.LoweredTensor("t_p", "q_p", scale=PRODUCER_SCALE, histogram={2: 1}, elements=16)}
    combines = {"kind": "sum", "operands": [{"node": "q_p", "magnitude": 1.0}], "limit": 4}
    assert lowering_check.carried_steps(combines, RESULT_SCALE, compared) == 4


def test_an_operand_on_a_later_delegate_outputs_tensor_is_measured_there() -> None:
    # The pattern sweep's matmul: the add's operand (an activation) has the
    # same TOSA tensor as delegate output 1, which comes after the add in
    # graph order; the output's measured step is the operand's.
    producer, result = _wide(seed=8), _wide(seed=9)
    activation = _entry(node="q_act", tosa="t_act", scale=PRODUCER_SCALE, qmin=-32768, qmax=32767)
    add = _sum_entries("q_act")[1]
    output = _entry(node="q_out", tosa="t_act", output=1, scale=PRODUCER_SCALE, qmin=-32768, qmax=32767)
    tosa_producer, tosa_result = producer.copy(), result.copy()
    tosa_producer[0, 5] -= 1  # one activation step: up to 4 add steps
    tosa_result[0, 5] -= 4
    reference = {"t_act": tosa_producer, "out": tosa_result}
    names = ["out", "t_act"]
    first, second, third = lowering_check.compare(
        [activation, add, output], [producer, result, producer], reference, names
    )
    assert first.output_tensor_of == 1 and first.note is not None
    assert third.max_steps == 1 and not third.diverges
    assert second.carried == 4 and not second.diverges
