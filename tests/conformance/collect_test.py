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


def test_a8w4_and_per_tensor_weights_as_the_sdks_options() -> None:
    # test_depthwise_conv sets get_symmetric_a8w4_quantization_config on the
    # pipeline's quantizer in its *_a8w4_* functions, per channel or not as
    # each case's id says (per_channel_quant=True/False).
    cases = [c for c in collect.collect(["test_depthwise_conv"]) if c.npu == "u55"]
    a8w4 = [c for c in cases if "a8w4" in c.function]
    assert a8w4 and all(c.settings["a8w4_quantization"] and c.quant.weights == "int4" for c in a8w4)
    assert not any(c.settings["a8w4_quantization"] for c in cases if "a8w4" not in c.function)
    per_tensor = [c for c in cases if "per_channel_quant=False" in c.case_id]
    per_channel = [c for c in cases if "per_channel_quant=True" in c.case_id]
    assert per_tensor and per_channel
    assert all(not c.settings["per_channel_quantization"] and "per_channel=False" in c.quantization for c in per_tensor)
    assert all(c.settings["per_channel_quantization"] and "per_channel" not in c.quantization for c in per_channel)
    # ExecuTorch's A8W4 config defaults to QAT's fake-quant observers; the SDK calibrates post-training.
    assert all(c.quant.calibration and "FakeQuantize" in c.quant.calibration for c in a8w4)
    label = next(c.quantization for c in a8w4 if c in per_tensor)
    assert label == "int8 weights=int4 per_channel=False"


def test_symmetric_io_from_the_constructor() -> None:
    # test_mean_dim builds its U55 pipelines with symmetric_io_quantization=True.
    cases = collect.collect(["test_mean_dim"])
    mean_dim = [c for c in cases if c.function == "test_mean_dim_u55_INT"]
    assert mean_dim and all(c.settings["symmetric_io_quantization"] for c in mean_dim)
    assert all(c.quantization == "int8 io_quantization=set_io" for c in mean_dim)
    a16w8 = [c for c in cases if c.function == "test_mean_dim_a16w8_u55_INT"]
    assert a16w8 and all(c.quantization == "a16w8 io_quantization=set_io" for c in a16w8)


def test_a_config_for_part_of_the_graph_is_unexpressible() -> None:
    # test_sigmoid_32bit's U85 pipelines get a 32-bit global config and a
    # 16-bit one for nn.Sigmoid: no option of the SDK says that.
    cases = [c for c in collect.collect(["test_sigmoid_32bit"]) if c.npu == "u85"]
    assert cases and all(c.quantization == "unexpressible" for c in cases)
    assert all(c.unexpressible and c.unexpressible.startswith("unexpressible quantization: ") for c in cases)
    assert all("Sigmoid" in c.unexpressible for c in cases)


def test_collection_errors_are_classed_with_executorchs_xfail() -> None:
    # The lines collect_file writes for a case whose set-up fails and for a
    # test file that cannot be imported: summary.py counts them by class.
    assert collect.error_class("test_x::test_y[a case]: ValueError: bad shape") == ("ValueError", False)
    xfailing = f"test_x::test_y[b]: RuntimeError: unsupported {collect.XFAIL_MARK}MLETORCH-1]"
    assert collect.error_class(xfailing) == ("RuntimeError", True)
    assert collect.error_class("test_z: import failed: ModuleNotFoundError: no module") == ("import failed", False)
