"""npu_case: generate a lowered test case (cached) and compare the NPU model
with the TOSA reference model on it."""

load("@rules_cc//cc:defs.bzl", "cc_test")
load("//tools/rules:model.bzl", "EthosuModelInfo")
load("//tools/rules:tiers.bzl", "tier_tags")
load("//tools/rules:worker.bzl", "WORKER_EXECUTION_REQUIREMENTS", "worker_arguments")

def _npu_case_data_impl(ctx):
    outputs = [ctx.outputs.payload, ctx.outputs.tensors]
    args = worker_arguments(ctx)
    args.add("--quiet")  # the log is shown only when the action fails
    args.add("--case=" + ctx.attr.case)
    args.add("--target=" + ctx.attr.target)
    if ctx.attr.activations != "int8":
        args.add("--activations=" + ctx.attr.activations)
    inputs = []
    if ctx.attr.model:
        verify_dirs = ctx.attr.model[OutputGroupInfo].verify_inputs.to_list()
        if len(verify_dirs) != 1:
            fail("%s: the model must keep its verification inputs (verify != \"off\")" % ctx.attr.model.label)
        pte = ctx.attr.model[EthosuModelInfo].pte
        args.add("--model_pte=" + pte.path)
        args.add("--model_verify_dir=" + verify_dirs[0].path)
        inputs = [pte, verify_dirs[0]]
    args.add("--payload_out=" + ctx.outputs.payload.path)
    args.add("--tensors_out=" + ctx.outputs.tensors.path)
    for target, payload in zip(ctx.attr.also_targets, ctx.outputs.also_payloads):
        args.add("--also=%s=%s" % (target, payload.path))
        outputs.append(payload)
    if ctx.outputs.tosa:
        args.add("--tosa_out=" + ctx.outputs.tosa.path)
        args.add("--debug_db_out=" + ctx.outputs.debug_db.path)
        outputs += [ctx.outputs.tosa, ctx.outputs.debug_db]
    ctx.actions.run(
        executable = ctx.executable._gen_case,
        arguments = [args],
        inputs = inputs,
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
        "model": attr.label(
            providers = [EthosuModelInfo],
            doc = "An ethosu_model whose lowering the case takes (gen_case.py --model_pte) instead of lowering `case`.",
        ),
        "payload": attr.output(mandatory = True),
        "tensors": attr.output(mandatory = True),
        "also_targets": attr.string_list(doc = "Other configurations of the NPU, one per also_payloads entry."),
        "also_payloads": attr.output_list(),
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
        activations = "int8",
        also = {},
        model = None,
        full = False):
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
      also: test name -> another configuration of the same NPU (U55 and
        U65, or U85 of any size): a test of the same case compiled by Vela
        for it, from the same lowering (gen_case.py --also), with the same
        inputs and expected outputs.
      model: an ethosu_model whose lowering (its .pte and verification
        inputs) the case takes instead of lowering `case` again; `case`
        then only names it.
      full: the full tier only (tools/rules/tiers.bzl): the case is neither
        generated nor tested by the everyday `bazel test //...`.
    """
    tags = tier_tags(full, tags)
    npu_case_data(
        name = name + "_data",
        case = case,
        target = target,
        activations = activations,
        model = model,
        payload = name + ".payload",
        tensors = name + ".tensors",
        also_targets = also.values(),
        also_payloads = [other + ".payload" for other in also],
        tosa = name + ".tosa" if layers else None,
        debug_db = name + ".debug.xml" if layers else None,
        tags = tags,
    )

    # One test per configuration: its payload against the shared tensors.
    for test in [name] + list(also):
        cc_test(
            name = test,
            size = size,
            srcs = [],
            args = ["$(rootpath %s.payload)" % test, "$(rootpath %s.tensors)" % name],
            data = [test + ".payload", name + ".tensors"],
            deps = ["//sim/tests/npu:case_runner"],
            tags = tags,
        )
