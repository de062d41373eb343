"""npu_case: generate a lowered test case (cached) and compare the NPU model
with the TOSA reference model on it."""

load("@rules_cc//cc:defs.bzl", "cc_test")
load("//tools/rules:worker.bzl", "WORKER_EXECUTION_REQUIREMENTS", "worker_arguments")

def _npu_case_data_impl(ctx):
    outputs = [ctx.outputs.payload, ctx.outputs.tensors]
    args = worker_arguments(ctx)
    args.add("--quiet")  # the log is shown only when the action fails
    args.add("--case=" + ctx.attr.case)
    args.add("--target=" + ctx.attr.target)
    if ctx.attr.activations != "int8":
        args.add("--activations=" + ctx.attr.activations)
    args.add("--payload_out=" + ctx.outputs.payload.path)
    args.add("--tensors_out=" + ctx.outputs.tensors.path)
    if ctx.outputs.tosa:
        args.add("--tosa_out=" + ctx.outputs.tosa.path)
        args.add("--debug_db_out=" + ctx.outputs.debug_db.path)
        outputs += [ctx.outputs.tosa, ctx.outputs.debug_db]
    ctx.actions.run(
        executable = ctx.executable._gen_case,
        arguments = [args],
        outputs = outputs,
        mnemonic = "NpuCase",
        progress_message = "Generating NPU case %s for %s (%%{label})" % (ctx.attr.case, ctx.attr.target),
        execution_requirements = WORKER_EXECUTION_REQUIREMENTS,
    )
    return [DefaultInfo(files = depset(outputs))]

npu_case_data = rule(
    implementation = _npu_case_data_impl,
    doc = "Runs gen_case.py (one-shot or in a persistent worker): payload, tensors, optional layers.",
    attrs = {
        "case": attr.string(mandatory = True),
        "target": attr.string(mandatory = True),
        "activations": attr.string(default = "int8", values = ["int8", "int16"]),
        "payload": attr.output(mandatory = True),
        "tensors": attr.output(mandatory = True),
        "tosa": attr.output(),
        "debug_db": attr.output(),
        "_gen_case": attr.label(
            default = Label("//sim/tests/npu:gen_case"),
            executable = True,
            cfg = "exec",
        ),
    },
)

def npu_case(
        name,
        case,
        target = "ethos-u85-256",
        size = "small",
        tags = [],
        layers = False,
        activations = "int8"):
    """Generates `case` for `target` and a cc_test comparing the model.

    Args:
      name: test name.
      case: case name in gen_case.py's CASES.
      target: Ethos-U accelerator config.
      size: test size.
      tags: test tags.
      layers: also keep the TOSA graph (<name>.tosa) and Vela's debug
        database (<name>.debug.xml) for a layer-by-layer comparison.
      activations: "int8" (A8W8) or "int16" (A16W8).
    """
    npu_case_data(
        name = name + "_data",
        case = case,
        target = target,
        activations = activations,
        payload = name + ".payload",
        tensors = name + ".tensors",
        tosa = name + ".tosa" if layers else None,
        debug_db = name + ".debug.xml" if layers else None,
        tags = tags,
    )
    cc_test(
        name = name,
        size = size,
        srcs = [],
        args = ["$(rootpath %s.payload)" % name, "$(rootpath %s.tensors)" % name],
        data = [name + ".payload", name + ".tensors"],
        deps = ["//sim/tests/npu:case_runner"],
        tags = tags,
    )
