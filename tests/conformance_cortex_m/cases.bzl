"""cortex_m_conformance_cases: each collected ExecuTorch cortex_m case
(collect.py) as export -> ethosu_model -> ethosu_firmware -> ethosu_run_test
on QEMU, on an NPU-less Cortex-M, against PyTorch's quantized graph."""

load("//:defs.bzl", "ethosu_firmware", "ethosu_model", "ethosu_run_test")

# The SDK's NPU-less targets and the board each runs on.
CPUS = {
    "m33": ("cortex-m33", "qemu_an505"),
    "m55": ("cortex-m55", "qemu_an547"),
    "m85": ("cortex-m85", "corstone320"),
}

def _export_all(name, cases, tags):
    """`<target name>.pt2` of every case, from one export_case process."""
    args = ["--case='%s' --out=$(RULEDIR)/%s.pt2" % (case, target) for target, case in cases]
    native.genrule(
        name = name,
        testonly = True,
        outs = [target + ".pt2" for target, _ in cases],
        cmd = "$(execpath //tests/conformance_cortex_m:export_case) " + " ".join(args),
        tools = ["//tests/conformance_cortex_m:export_case"],
        tags = tags,
    )

def cortex_m_conformance_cases(cases, cpus, tags = [], programs = "cortex_m_programs", exported = False):  # buildifier: disable=unnamed-macro (one target set per case)
    """One test `<name>_<cpu>_test` per (name, case) and CPU of `cpus` (CPUS keys).

    `exported`: each `<name>.pt2` is a file of the package already (the
    bench exports a whole slice in one process), not exported here."""
    if not exported:
        _export_all(programs, cases, tags)
    for name, _ in cases:
        for cpu in cpus:
            target, board = CPUS[cpu]
            model = "%s_%s" % (name, cpu)
            ethosu_model(
                name = model,
                testonly = True,
                model = ":%s.pt2" % name,
                target = target,
                tags = tags,
            )
            ethosu_firmware(
                name = model + "_firmware",
                testonly = True,
                board = board,
                model = ":" + model,
                tags = tags,
            )
            ethosu_run_test(
                name = model + "_test",
                size = "small",
                firmware = ":%s_firmware" % model,
                model = ":" + model,
                timeout_seconds = 600,
                tags = tags,
            )
