"""conformance_cases: each collected ExecuTorch Ethos-U case (collect.py) as
export -> ethosu_model -> ethosu_firmware -> ethosu_run_test on QEMU. Shared
by the sample in `bazel test //...` (sample.bzl) and the slices that
//bench/conformance generates, so both run the same rules."""

load("//:defs.bzl", "ethosu_firmware", "ethosu_model", "ethosu_run_test")
load("//tools/rules:pytest.bzl", "py_pytest")
load("//tools/rules:tiers.bzl", "one_of_each", "tier_tags")

# The SDK target of each NPU (ExecuTorch's compile specs for these pipelines).
TARGETS = {"u55": "ethos-u55-128", "u65": "ethos-u65-256", "u85": "ethos-u85-256"}

# An option's value in a quantization label (collect.Case.quantization)
# where it is not the string itself.
_LABEL_VALUES = {"False": False, "True": True}

def quantization_options(quantization):
    """ethosu_model's options of a case's quantization label.

    "int8", "a16w8 per_channel=False" or "int8 weights=int4 io_quantization=set_io":
    the quantize mode, then `option=value` for each other option the case
    needs (collect.Case.quantization writes them). `calibration_samples=N`
    is not an option: see calibration_files.
    """
    words = quantization.split(" ")
    options = {"quantize": words[0]}
    for word in words[1:]:
        key, _, value = word.partition("=")
        if key != _CALIBRATION_SAMPLES:
            options[key] = _LABEL_VALUES.get(value, value)
    return options

# The label word counting a case's own calibration samples.
_CALIBRATION_SAMPLES = "calibration_samples"

# collect.export writes a case's own calibration samples beside its
# `<name>.pt2` (collect.calibration_file).
def calibration_files(name, quantization):
    """The case's own calibration samples, `<name>.calibrationI.npz`."""
    for word in quantization.split(" ")[1:]:
        key, _, value = word.partition("=")
        if key == _CALIBRATION_SAMPLES:
            return ["%s.calibration%d.npz" % (name, index) for index in range(int(value))]
    return []

def _model(name, npu, quantization, verify, tags):
    """`name`: the case's `<name>.pt2` compiled by ethosu_model.

    The `.pt2` (and its calibration samples) come from _export_all or are
    files of the package.
    """
    ethosu_model(
        name = name,
        testonly = True,
        model = ":%s.pt2" % name,
        calibration = [":" + f for f in calibration_files(name, quantization)],
        target = TARGETS[npu],
        verify = verify,
        tags = tags,
        # quantizer_setup names a helper of the case's test file (pipeline_setup.py).
        model_deps = [Label("//tests/conformance:pipeline_setup")] if "quantizer_setup=" in quantization else [],
        **quantization_options(quantization)
    )

def _export_all(name, cases, tags):
    """`<case name>.pt2` of every case, from one export_case process.

    The cases are exported as float programs with torch and ExecuTorch's test
    files imported once: ~0.2 s a case instead of ~12 s in a process of its own.
    """
    args = []
    for target, case, npu, quantization in cases:
        args.append("--case='%s' --npu=%s --quantization='%s' --out=$(RULEDIR)/%s.pt2" % (case, npu, quantization, target))
    native.genrule(
        name = name,
        testonly = True,
        outs = [out for target, _, _, quantization in cases for out in [target + ".pt2"] + calibration_files(target, quantization)],
        cmd = "$(execpath //tests/conformance:export_case) " + " ".join(args),
        tools = ["//tests/conformance:export_case"],
        tags = tags,
    )

def conformance_cases(cases, tags = [], exported = False, programs = "conformance_programs", sample = False):  # buildifier: disable=unnamed-macro (one target set per case)
    """One test `<name>_test` per (name, case, NPU, quantization label).

    The label is the case's quantization in ethosu_model's options
    (quantization_options).

    exported: each case's `<name>.pt2` is a file of the package already
    (bench/conformance writes them with the same collect.export); otherwise
    the genrule `programs` exports them all (the everyday ones; the full
    tier's from `<programs>_full`).
    sample: the everyday tier (tools/rules/tiers.bzl) keeps one case of
    every fourth ExecuTorch test file (operator), the NPU and quantization
    rotating from file to file; the other cases are tagged for the full tier
    (--config=full), their exports, lowerings and firmware too.
    """
    split = one_of_each(
        [tuple(entry) + (entry[1].split("::")[0],) for entry in cases],
        4,
        period = 4,
    ) if sample else [(tuple(entry) + ("",), False) for entry in cases]
    everyday = [entry[:4] for entry, full in split if not full]
    full_only = [entry[:4] for entry, full in split if full]
    if not exported:
        _export_all(programs, everyday, tags)
        if full_only:
            _export_all(programs + "_full", full_only, tier_tags(True, tags))
    for (name, _, npu, quantization, _), full in split:
        case_tags = tier_tags(full, tags)
        _model(name, npu, quantization, "fail", case_tags)
        ethosu_firmware(
            name = name + "_firmware",
            testonly = True,
            model = ":" + name,
            tags = case_tags,
        )
        ethosu_run_test(
            name = name + "_test",
            size = "small",
            # Bazel's limit above the simulation's own, so a slow case
            # (a large CPU fallback under load) ends with the runner's
            # clear timeout line rather than Bazel's TIMEOUT.
            timeout = "long",
            firmware = ":%s_firmware" % name,
            model = ":" + name,
            timeout_seconds = 600,
            tags = case_tags,
        )

def conformance_expected_failures(name, cases):
    """Known failures (known.py), each checked to fail for its known cause.

    Each case is built with verify = "warn" so the build goes on, and one test `name` asserts
    that each verification still names its expected cause: a fix of the
    functional model flips the test, and the case moves to the sample.

    cases: (target name, case, NPU, quantization label, regex the
    verification's "not modelled" line must match).
    """
    _export_all(name + "_programs", [entry[:4] for entry in cases], [])
    for target, _, npu, quantization, _ in cases:
        _model(target, npu, quantization, "warn", [])
    py_pytest(
        name = name,
        size = "small",
        srcs = ["known_failures_test.py"],
        env = {"CONFORMANCE_EXPECT": json.encode({target: regex for target, _, _, _, regex in cases})},
        data = [":" + target for target, _, _, _, _ in cases],
    )
