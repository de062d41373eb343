"""The collector against the installed ExecuTorch wheel: it finds Ethos-U
cases for both NPUs with their quantization settings and ExecuTorch's own
xfail markers, and every recorded module runs on its recorded inputs."""

from __future__ import annotations

import collect
import torch


def test_cases_of_both_npus_with_settings() -> None:
    errors: list[collect.CollectError] = []
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


def test_a_file_that_imports_pytests_conftest_is_collected() -> None:
    # test_transpose_conv2d.py does `import conftest`, the Arm test
    # directory's conftest.py under pytest; it failed to import before.
    errors: list[collect.CollectError] = []
    cases = collect.collect(["test_transpose_conv2d"], errors)
    assert errors == []
    assert {c.npu for c in cases} == {"u55", "u85"}
    for case in cases:
        case.module.eval()(*case.inputs)


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


def test_a_helpers_config_for_part_of_the_graph_runs_the_helper() -> None:
    # test_sigmoid_32bit's U85 pipelines get a 32-bit global config and a
    # 16-bit one for nn.Sigmoid from the file's own helper: the case runs
    # that helper on the SDK's quantizer (quantizer_setup), the rest of its
    # options the constructor's.
    from executorch.backends.arm.quantizer import EthosUQuantizer
    from executorch.backends.arm.test import common

    from ethosu_sdk.aot import quantization

    cases = [c for c in collect.collect(["test_sigmoid_32bit"]) if c.npu == "u85"]
    setup = "pipeline_setup:ops.test_sigmoid_32bit.configure_32bit_sigmoid_quantizer"
    assert len(cases) == 12 and all(c.unexpressible is None for c in cases)
    assert all(c.quantization == f"int8 quantizer_setup={setup}" for c in cases)
    quantizer = EthosUQuantizer(common.get_u85_compile_spec())
    quantization.load_setup(setup)(quantizer)
    assert quantizer.global_config.input_activation.dtype == torch.int32


_INLINE = """
import torch
from executorch.backends.arm.test import common
from executorch.backends.arm.test.tester.test_pipeline import EthosU85PipelineINT

@common.parametrize("x", {"ones": lambda: torch.ones(2)})
def test_inline_u85_INT(x):
    pipeline = EthosU85PipelineINT(torch.nn.Sigmoid(), (x(),), [], [])
    pipeline.quantizer.set_module_type(torch.nn.Sigmoid, None)
    pipeline.run()
"""


def test_a_config_for_part_of_the_graph_made_inline_is_unexpressible(tmp_path, monkeypatch) -> None:
    # The test function's own calls cannot be replayed: no helper to name.
    import importlib.util
    import sys

    name = "test_inline_partial_config"
    path = tmp_path / f"{name}.py"
    path.write_text(_INLINE)
    spec = importlib.util.spec_from_file_location(f"{collect.OPS_PACKAGE}.{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, spec.name, module)
    (case,) = collect.collect([name])
    assert case.quantization == "unexpressible"
    assert case.unexpressible == "unexpressible quantization: set_module_type(Sigmoid) left in float"


def test_collection_errors_are_records_with_executorchs_xfail() -> None:
    # A test file that cannot be imported is one record of its own class,
    # whatever its message holds (a "]: " in it once misled a line parser).
    errors: list[collect.CollectError] = []
    assert collect.collect(["test_no_such_file"], errors) == []
    (error,) = errors
    assert (error.where, error.kind, error.xfail) == ("test_no_such_file", "import failed", None)
    assert error.message.startswith("ModuleNotFoundError: ")
    assert str(error).startswith("test_no_such_file: import failed: ModuleNotFoundError: ")
    xfailing = collect.CollectError("test_x::test_y[b]", "RuntimeError", "shape [1]: bad", "MLETORCH-1")
    assert str(xfailing) == f"test_x::test_y[b]: RuntimeError: shape [1]: bad {collect.XFAIL_MARK}MLETORCH-1]"


def test_a_tests_own_calibration_samples_are_kept_and_exported(tmp_path) -> None:
    # test_cond gives its quantize stage one sample per path through the
    # branches (_make_calibration_samples); the case carries them, its label
    # counts them, and export() writes each beside the program.
    import numpy as np
    from executorch.backends.arm.test.ops import test_cond

    cases = [c for c in collect.collect_file("test_cond", function="test_cond_u85_INT") if "nested" in c.case_id]
    (case,) = cases
    theirs = test_cond._make_calibration_samples(case.module, case.inputs)
    assert len(case.calibration) == len(theirs) > 1
    for ours, expected in zip(case.calibration, theirs):
        assert all(torch.equal(a, b) for a, b in zip(ours, expected))
    assert case.quantization == f"int8 calibration_samples={len(theirs)}"
    out = str(tmp_path / "case.pt2")
    collect.export(case, out)
    for index, sample in enumerate(case.calibration):
        with np.load(collect.calibration_file(out, index)) as archive:
            assert [archive[n].tolist() for n in archive.files] == [t.tolist() for t in sample]
