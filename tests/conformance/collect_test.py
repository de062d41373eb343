"""The collector against the installed ExecuTorch wheel: it finds Ethos-U
cases for both NPUs with their quantization settings and ExecuTorch's own
xfail markers, and every recorded module runs on its recorded inputs."""

from __future__ import annotations

import collect


def test_cases_of_both_npus_with_settings() -> None:
    errors: list[str] = []
    cases = collect.collect(["test_add", "test_cat"], errors)
    assert errors == []
    npus = {c.npu for c in cases}
    assert {"u55", "u85"} <= npus
    assert {c.file for c in cases} == {"test_add", "test_cat"}
    # test_add has 16A8W cases, configured through the pipeline's quantizer.
    assert any(c.quantize == "a16w8" and "16a8w" in c.function for c in cases)
    assert all(c.quantize == "int8" for c in cases if "16a8w" not in c.function and "a16w8" not in c.function)
    assert all(set(c.settings) == set(collect.QUANTIZATION_SETTINGS) for c in cases)
    for case in cases:
        case.module.eval()(*case.inputs)  # a real (module, inputs) pair, not a recorder


def test_executorch_xfails_kept_fvp_ones_dropped() -> None:
    cases = collect.collect(["test_div_tensor_mode"])
    reasons = {c.xfail for c in cases}
    assert any(r and "CPU op missing" in r for r in reasons)  # the wheel's own marker
    assert not any(r and collect._FVP_ONLY.search(r) for r in reasons)


def test_a_test_functions_own_xfail_marks_each_case() -> None:
    # test_acosh.py marks test_acosh_u55_INT_xfail (invalid inputs) with
    # @pytest.mark.xfail above its parametrize: every case of it is xfail.
    cases = collect.collect(["test_acosh"])
    marked = [c for c in cases if c.function.endswith("_xfail")]
    assert marked and all(c.xfail and "Invalid inputs" in c.xfail for c in marked)
    assert all(c.xfail is None for c in cases if not c.function.endswith("_xfail"))
