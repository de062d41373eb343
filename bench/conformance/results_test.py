"""results.py: records accumulate across files, the latest per case counts,
and the tables count what the records say."""

from __future__ import annotations

import os
import pathlib

import pytest
import results


def _record(case: str, npu: str, outcome: str, date: str, xfail: str | None = None) -> results.Record:
    return results.Record(
        case=case,
        npu=npu,
        quantize="int8",
        outcome=outcome,
        cls=None if outcome == "PASS" else "NPU fault",
        reason="" if outcome == "PASS" else "NPU fault: bad",
        xfail=xfail,
        known=None,
        commit="abc",
        date=date,
        shard="--shard=0/2",
    )


def test_file_for_names_a_file_per_shard() -> None:
    assert results.file_for("--shard=3/20").endswith("results/shard-3-of-20.jsonl")
    assert results.file_for("").endswith("results/slices.jsonl")


def test_latest_record_per_case_counts(tmp_path: pathlib.Path) -> None:
    first = os.path.join(tmp_path, "shard-0-of-2.jsonl")
    second = os.path.join(tmp_path, "slices.jsonl")
    results.append(first, [_record("a::t[x]", "u55", "FAIL", "2026-01-01T00:00:00+00:00")])
    results.append(first, [_record("b::t[x]", "u85", "PASS", "2026-01-01T00:00:00+00:00")])
    # The same case rerun later, from another file: the rerun wins.
    results.append(second, [_record("a::t[x]", "u55", "PASS", "2026-01-02T00:00:00+00:00")])
    loaded = results.load(str(tmp_path))
    assert [(r.case, r.outcome) for r in loaded] == [("a::t[x]", "PASS"), ("b::t[x]", "PASS")]


def test_one_commit_leaves_out_other_trees_runs(tmp_path: pathlib.Path) -> None:
    path = os.path.join(tmp_path, "slices.jsonl")
    old = _record("a::t[x]", "u55", "PASS", "2026-01-01T00:00:00+00:00")
    new = _record("a::t[x]", "u55", "FAIL", "2026-01-02T00:00:00+00:00")
    other = _record("b::t[x]", "u55", "PASS", "2026-01-03T00:00:00+00:00")
    new.commit, other.commit = "def", "def"
    results.append(path, [old, new, other])
    assert [(r.case, r.outcome) for r in results.load(str(tmp_path), "abc")] == [("a::t[x]", "PASS")]
    assert [(r.case, r.outcome) for r in results.load(str(tmp_path), "def")] == [
        ("a::t[x]", "FAIL"),
        ("b::t[x]", "PASS"),
    ]


def test_failed_selects_cases_whose_latest_record_fails(tmp_path: pathlib.Path) -> None:
    path = os.path.join(tmp_path, "shard-0-of-2.jsonl")
    results.append(path, [_record("fixed::t[x]", "u55", "FAIL", "2026-01-01T00:00:00+00:00")])
    results.append(path, [_record("fixed::t[x]", "u55", "PASS", "2026-01-02T00:00:00+00:00")])
    results.append(path, [_record("broken::t[x]", "u85", "PASS", "2026-01-01T00:00:00+00:00")])
    results.append(path, [_record("broken::t[x]", "u85", "FAIL", "2026-01-02T00:00:00+00:00")])
    results.append(path, [_record("passes::t[x]", "u55", "PASS", "2026-01-01T00:00:00+00:00")])
    assert results.failing(str(tmp_path)) == {("broken::t[x]", "u85", "int8")}


def test_tables_count_pass_rates_and_classes() -> None:
    records = [
        _record("a::t[1]", "u55", "PASS", "d"),
        _record("a::t[2]", "u55", "FAIL", "d"),
        _record("a::t[3]", "u55", "FAIL", "d", xfail="ExecuTorch: broken"),
        _record("a::t[1]", "u85", "PASS", "d"),
    ]
    text = results.tables(records)
    # u55: 1 of 3 pass; ExecuTorch expects 2 to pass, 1 of those passes.
    assert "| ethos-u55-128 | 3 | 1 | 33.3% | 2 | 1 (50.0%) |" in text
    assert "| ethos-u85-256 | 1 | 1 | 100.0% | 1 | 1 (100.0%) |" in text
    assert "| NPU fault | - | - | 1 | a::t[2] (u55, int8): NPU fault: bad |" in text
    assert "| NPU fault | xfail | - | 1 | a::t[3] (u55, int8): NPU fault: bad |" in text


def test_a_broken_line_names_its_file(tmp_path: pathlib.Path) -> None:
    with open(os.path.join(tmp_path, "bad.jsonl"), "w") as f:
        f.write("{not json\n")
    with pytest.raises(ValueError, match=r"bad\.jsonl:1: not a result record"):
        results.load(str(tmp_path))


def test_classes_tell_which_half_of_the_verification_differs() -> None:
    # First lines of real failures (bench/conformance/results/shard-0-of-20.jsonl).
    lowering = "verification FAILED: lowering (TOSA vs PyTorch): first diverging tensor `tanh`"
    npu = "verification FAILED: NPU program (NPU vs TOSA): first differing layer `<model>`"
    feature = "verification FAILED: partition 0: the functional NPU model lacks an NPU feature (word 432)"
    refused = "FAIL: the firmware reported: InvalidArgument instruction=4 convolution ranks (5, 5)"
    assert results.classify(lowering) == "verification: lowering differs from PyTorch"
    assert results.classify(npu) == "verification: NPU model differs from TOSA"
    assert results.classify(feature) == "verification: not modelled"
    assert results.classify(refused) == "CPU kernel refused"
    executorch = lowering + " (Neg, neg), TOSA output 0 (up to 5); a known ExecuTorch fault: ExecuTorch 1.5.1 lowers"
    assert results.classify(executorch) == "verification: ExecuTorch fault"
    # An NPU feature the model refuses as "unsupported" is not an export failure
    # (shard 13 of 20, div_tensor_mode U85 [int16_trunc]).
    division = (
        "verification FAILED: partition 0: the functional NPU model lacks an NPU feature that the PyTorch operator "
        "div.Tensor_mode needs (word 130: unsupported elementwise mode 11 (DIV)), so this program cannot be verified"
    )
    assert results.classify(division) == "verification: not modelled"
    assert results.classify("aot_compile: error: Unsupported control flow operator: while_loop") == "export failed"
    branch = (
        "verification FAILED: partition 0: the NPU program branches (WHILE_LOOP, from "
        "torch.ops.higher_order.while_loop), and the functional NPU model does not run NPU_OP_BRANCH"
    )
    assert results.classify(branch) == "verification: not modelled"
    # The first line of test_index_put_u85_INT[same_index] (bench/RESULTS.md, issue 34's run).
    scatter = (
        "verification error: the TOSA reference model calls this graph's result UNPREDICTABLE for the example "
        "input: a SCATTER writes one position twice (repeated indices, e.g. index_put with a repeated index)"
    )
    assert results.classify(scatter) == "verification: undefined by TOSA"


def test_an_unexpressible_quantization_is_a_class_of_its_own() -> None:
    # collect.Case.unexpressible's line (tests/conformance/case_quantization.py),
    # though it names "Unsupported"-like words an export failure would.
    reason = "unexpressible quantization: set_module_type(Sigmoid) with a config of its own"
    assert results.classify(reason) == "unexpressible quantization"
    assert results.classify("export_case: error: torch.export: UserError: x") == "export failed"
