"""conformance_cases: each collected ExecuTorch Ethos-U case (collect.py) as
export -> ethosu_model -> ethosu_firmware -> ethosu_run_test on QEMU. Shared
by the sample in `bazel test //...` (sample.bzl) and the slices that
//bench/conformance generates, so both run the same rules."""

load("//:defs.bzl", "ethosu_firmware", "ethosu_model", "ethosu_run_test")
load("//tools/rules:pytest.bzl", "py_pytest")

# The SDK target of each NPU (ExecuTorch's compile specs for these pipelines).
TARGETS = {"u55": "ethos-u55-128", "u65": "ethos-u65-256", "u85": "ethos-u85-256"}

def _model(name, case, npu, quantize, verify, tags, exported = False):
    """`name`: the case exported, then compiled by ethosu_model.

    With `exported`, `<name>.pt2` is a file of the package already.
    """
    if not exported:
        _export(name, case, npu, quantize, tags)
    ethosu_model(
        name = name,
        testonly = True,
        model = ":%s.pt2" % name,
        quantize = quantize,
        target = TARGETS[npu],
        verify = verify,
        tags = tags,
    )

def _export(name, case, npu, quantize, tags):
    """`<name>.pt2`: the case exported as a float program (export_case.py)."""
    native.genrule(
        name = name + "_program",
        testonly = True,
        outs = [name + ".pt2"],
        cmd = "$(execpath //tests/conformance:export_case) --case='%s' --npu=%s --quantize=%s --out=$@" % (case, npu, quantize),
        tools = ["//tests/conformance:export_case"],
        tags = tags,
    )

def conformance_cases(cases, tags = [], exported = False):  # buildifier: disable=unnamed-macro (one target set per case)
    """One test `<name>_test` per (name, case, NPU, quantization mode).

    exported: each case's `<name>.pt2` is a file of the package, written by
    the same export (collect.export) in one process for many cases
    (bench/conformance), instead of a genrule that imports torch per case.
    """
    for name, case, npu, quantize in cases:
        _model(name, case, npu, quantize, "fail", tags, exported)
        ethosu_firmware(
            name = name + "_firmware",
            testonly = True,
            model = ":" + name,
            tags = tags,
        )
        ethosu_run_test(
            name = name + "_test",
            size = "small",
            firmware = ":%s_firmware" % name,
            model = ":" + name,
            timeout_seconds = 600,
            tags = tags,
        )

def conformance_expected_failures(name, cases):
    """Known failures (known.py), each checked to fail for its known cause.

    Each case is built with verify = "warn" so the build goes on, and one test `name` asserts
    that each verification still names its expected cause: a fix of the
    functional model flips the test, and the case moves to the sample.

    cases: (target name, case, NPU, SDK quantization mode, regex the
    verification's "not modelled" line must match).
    """
    for target, case, npu, quantize, _ in cases:
        _model(target, case, npu, quantize, "warn", [])
    py_pytest(
        name = name,
        size = "small",
        srcs = ["known_failures_test.py"],
        env = {"CONFORMANCE_EXPECT": json.encode({target: regex for target, _, _, _, regex in cases})},
        data = [":" + target for target, _, _, _, _ in cases],
    )
