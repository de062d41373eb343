"""The lowering check at build time (python/ethosu_sdk/verify/lowering_check.py)
on issue 33's reproducer, a ReLU before a concatenation, and on issue 34's
A16W8 neg and U55 right shift (the same pairs, `neg_u55_a16w8{,_unfixed}`,
`rshift_u55{,_unfixed}`):

- with the SDK's lowering workarounds (the default) the build verified both
  halves: every delegate output and the ReLU's intermediate within one step
  of PyTorch's quantized graph, and the NPU program bit-exact;
- without them (`lowering_workarounds = False`, `verify = "warn"`) the
  check names the ReLU, its source line and "lowering (TOSA vs PyTorch)".
"""

import json
import os

import lowering_models
import pytest

NPUS = ["u55", "u85"]
_SOURCE = os.path.basename(lowering_models.__file__)


def _report(name: str) -> dict:
    with open(os.path.join("tests/lowering", name + ".verification.json")) as f:
        return json.load(f)


def _relu_line() -> int:
    """The reproducer's `torch.relu` line, read from its source."""
    with open(lowering_models.__file__) as f:
        return next(i for i, line in enumerate(f, 1) if "torch.relu(" in line)


@pytest.mark.parametrize("npu", NPUS)
def test_worked_around_passes_both_halves(npu: str) -> None:
    report = _report(f"conv_relu_cat_{npu}")
    assert report["status"] == "pass", report["summary"]
    (partition,) = report["partitions"]
    assert partition["skipped"] is None
    lowered = {t["op"]: t for t in partition["lowering"]}
    assert set(lowered) == {"relu", "cat"}, partition["lowering"]
    assert lowered["cat"]["output"] == 0 and lowered["cat"]["elements"] == 32 * 24 * 24
    assert lowered["relu"]["output"] is None and lowered["relu"]["elements"] == 16 * 24 * 24
    for tensor in lowered.values():
        assert tensor["note"] is None and tensor["max_steps"] <= 1, tensor


@pytest.mark.parametrize("npu", NPUS)
def test_without_workaround_the_lowering_fails_naming_the_relu(npu: str) -> None:
    report = _report(f"conv_relu_cat_{npu}_unfixed")
    assert report["status"] == "fail"
    summary = report["summary"]
    assert summary.startswith("verification FAILED: lowering (TOSA vs PyTorch): first diverging tensor "), summary
    assert f"relu at tests/lowering/{_SOURCE}:{_relu_line()}" in summary, summary
    first = report["first_lowering_divergence"]
    assert first["op"] == "relu" and first["module_type"] == "ConvReluCat"
    # Issue 33 measured up to 68 steps with plain ExecuTorch; every one of
    # them below the zero point (the dropped ReLU's negative values).
    assert first["max_steps"] > 1
    assert all(int(d) < 0 for d in first["histogram"])
    # The NPU program itself is still what the TOSA graph says.
    (partition,) = report["partitions"]
    assert all(o["differing"] == 0 for o in partition["outputs"])


def test_a16w8_neg_is_rescaled_and_named_without_the_workaround() -> None:
    fixed = _report("neg_u55_a16w8")
    assert fixed["status"] == "pass", fixed["summary"]
    (output,) = [t for t in fixed["partitions"][0]["lowering"] if t["output"] is not None]
    assert output["op"] == "neg" and output["max_steps"] <= 1, output
    unfixed = _report("neg_u55_a16w8_unfixed")
    assert unfixed["status"] == "fail"
    summary = unfixed["summary"]
    assert "(Neg, neg" in summary and "a known ExecuTorch fault: ExecuTorch 1.5.1 lowers a 16-bit neg" in summary
    # Off by the ratio of the two scales: every element, a few steps.
    first = unfixed["first_lowering_divergence"]
    assert first["output"] == 0 and first["max_steps"] > 1


def test_u55_right_shift_floors_and_is_named_without_the_workaround() -> None:
    fixed = _report("rshift_u55")
    assert fixed["status"] == "pass", fixed["summary"]
    (output,) = fixed["partitions"][0]["lowering"]
    assert output["exact"] and output["op"] == "bitwise_right_shift.Tensor", output
    assert output["note"] is None and output["elements"] == 4 * 31 * 4 and output["histogram"] == {}, output
    unfixed = _report("rshift_u55_unfixed")
    assert unfixed["status"] == "fail"
    summary = unfixed["summary"]
    assert "(RightShift, bitwise_right_shift.Tensor" in summary and "compared exactly" in summary, summary
    assert "a known ExecuTorch fault: ExecuTorch 1.5.1 lowers a right shift for the Ethos-U55" in summary
    # Rounded instead of floored: one up wherever the last bit shifted out is set.
    first = unfixed["first_lowering_divergence"]
    assert first["output"] == 0 and set(first["histogram"]) == {"1"}, first
    (partition,) = unfixed["partitions"]
    assert all(o["differing"] == 0 for o in partition["outputs"])
