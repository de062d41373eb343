"""ethosu_run / ethosu_run_test: a compiled model's firmware run on its board,
with the full report (python/ethosu_sdk/cli/run_model.py)."""

load(":firmware.bzl", "FirmwareInfo", "USE_FVP_ATTR", "fvp_args")
load(":launcher.bzl", "write_launcher")
load(":model.bzl", "EthosuModelInfo")

def _ethosu_run_impl(ctx):
    firmware = ctx.attr.firmware[FirmwareInfo]
    model = ctx.attr.model[EthosuModelInfo]
    args = [
        "--name=" + ctx.label.name,
        "--elf=" + firmware.elf.short_path,
        "--board=" + firmware.board,
        "--summary=" + model.summary.short_path,
        "--expected=" + model.expected.short_path,
        "--timeout=%d" % ctx.attr.timeout_seconds,
    ] + fvp_args(ctx)
    files = [firmware.elf, model.summary, model.expected]

    # The board's NPU is the one the model was compiled for ("" for cpu/TOSA),
    # unless the rule says otherwise (a mismatch test runs another).
    npu = ctx.attr.npu or (model.target if model.target.startswith("ethos-u") else "")
    if npu:
        args.append("--npu=" + npu)
    if ctx.attr.baseline_model:
        baseline = ctx.attr.baseline_model[EthosuModelInfo].summary
        args.append("--baseline_summary=" + baseline.short_path)
        files.append(baseline)
    if getattr(model, "verification", None):
        args.append("--verification=" + model.verification.short_path)
        files.append(model.verification)
    if model.intermediates:
        args.append("--intermediates=" + model.intermediates.short_path)
        files.append(model.intermediates)

        # Rendered once per model and cached: a warm `bazel run` only writes HTML.
        charts = ctx.actions.declare_directory(ctx.label.name + "_charts")
        chart_args = ["--intermediates=" + model.intermediates.path, "--out_dir=" + charts.path]
        chart_inputs = [model.intermediates]
        if getattr(model, "verification", None):
            # The costliest layers are labelled with their PyTorch modules.
            chart_args.append("--verification=" + model.verification.path)
            chart_inputs.append(model.verification)
        ctx.actions.run(
            executable = ctx.executable._render_charts,
            arguments = chart_args,
            inputs = chart_inputs,
            outputs = [charts],
            mnemonic = "ReportCharts",
            progress_message = "Rendering the report charts of %{label}",
        )
        args.append("--charts=" + charts.short_path)
        files.append(charts)
    if getattr(model, "eval_data", None):
        # The program's output per evaluation sample on the host runner,
        # cached with the model: the report's top-5 and confusion matrix.
        scores = ctx.actions.declare_file(ctx.label.name + "_accuracy_scores.json")
        ctx.actions.run(
            executable = ctx.executable._program_scores,
            arguments = [
                "--pte=" + model.pte.path,
                "--summary=" + model.summary.path,
                "--eval_dir=" + model.eval_data[0].dirname,
                "--host_runner=" + ctx.executable._host_runner.path,
                "--out=" + scores.path,
            ],
            inputs = [model.pte, model.summary] + model.eval_data,
            tools = [ctx.executable._host_runner],
            outputs = [scores],
            mnemonic = "ProgramScores",
            progress_message = "Scoring the evaluation samples on the host runner for %{label}",
        )
        args.append("--accuracy_scores=" + scores.short_path)
        files.append(scores)
    return [write_launcher(ctx, ctx.attr._runner, args, files)]

_ATTRS = {
    "firmware": attr.label(mandatory = True, providers = [FirmwareInfo], doc = "An ethosu_firmware."),
    "model": attr.label(mandatory = True, providers = [EthosuModelInfo], doc = "The ethosu_model it runs."),
    "timeout_seconds": attr.int(default = 900, doc = "Wall-clock limit of the simulation."),
    "baseline_model": attr.label(
        providers = [EthosuModelInfo],
        doc = "Another ethosu_model of the same network (e.g. its int8-weights build): its NPU weight bytes are printed beside this one's.",
    ),
    "npu": attr.string(doc = "The board's Ethos-U (default: the model's target, e.g. ethos-u85-256)."),
    "_host_runner": attr.label(
        default = Label("//sim/host:host_runner"),
        executable = True,
        cfg = "exec",
    ),
    "_program_scores": attr.label(
        default = Label("//python/ethosu_sdk/report:program_scores"),
        executable = True,
        cfg = "exec",
    ),
    "_render_charts": attr.label(
        default = Label("//python/ethosu_sdk/report:render_charts"),
        executable = True,
        cfg = "exec",
    ),
    "_runner": attr.label(
        default = Label("//python/ethosu_sdk/cli:run_model"),
        executable = True,
        cfg = "target",
    ),
} | USE_FVP_ATTR

ethosu_run = rule(
    implementation = _ethosu_run_impl,
    doc = "`bazel run`: the model's firmware on its board, with summary, estimate, results and report.",
    attrs = _ATTRS,
    executable = True,
)

ethosu_run_test = rule(
    implementation = _ethosu_run_impl,
    doc = "`bazel test`: as ethosu_run; passes when the outputs match the reference.",
    attrs = _ATTRS,
    test = True,
)
