"""The CPU bench's failure classes from the lines the SDK prints
(cortex_m_conformance.classify)."""

from __future__ import annotations

from cortex_m_conformance import classify


def test_a_refused_kernel_is_classed_by_kind_and_operator() -> None:
    line = (
        "ESDK ERROR NotSupported instruction=0 operator aten::minimum.out: a tensor in dim order (0,2,3,1); "
        "this kernel takes tensors in the default dim order only"
    )
    assert classify(line) == "firmware NotSupported: aten::minimum"


def test_a_cortex_m_operator_keeps_its_namespace() -> None:
    line = "ESDK ERROR InvalidArgument instruction=5 operator cortex_m::quantized_mul.out: zero point -221"
    assert classify(line) == "firmware InvalidArgument: cortex_m::quantized_mul"


def test_an_aot_error_is_classed_by_its_first_clause() -> None:
    assert (
        classify("ethosu_model: error: no kernel for aten::roll: the lowering keeps it")
        == "build: no kernel for aten::roll"
    )


def test_a_wrong_output_is_the_ethos_u_class() -> None:
    assert classify("FAIL: output 0: 3/10 within one quantization step") == "wrong output"


def test_a_lowering_failure_is_classed_by_its_exception() -> None:
    line = (
        "aot_compile: error: model 'slice/conv.pt2' failed while lowering: lowering for cortex-m55 (cortex_m passes) "
        "failed (NotImplementedError): \"slow_conv_dilated<>\" not implemented for 'Int' (--verbose shows the traceback)"
    )
    assert classify(line) == "build: NotImplementedError: \"slow_conv_dilated<>\" not implemented for 'Int'"


def test_the_run_tests_report_of_a_refusal_is_classed_the_same() -> None:
    line = (
        "FAIL: the firmware reported: NotSupported instruction=-1 operator aten::convolution.out: a tensor in dim "
        "order (0,2,3,1); this kernel takes tensors in the default dim order only"
    )
    assert classify(line) == "firmware NotSupported: aten::convolution"
