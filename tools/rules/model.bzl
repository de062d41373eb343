"""ethosu_model: a PyTorch model compiled ahead of time into a .pte, as build outputs.

    load("@ethosu_sdk//:defs.bzl", "ethosu_model")

    ethosu_model(
        name = "mv2_u85",
        model = "mobilenet_v2",          # zoo name, or "my_pkg.my_module:build"
        target = "ethos-u85-256",
    )

produces `mv2_u85.pte`, `mv2_u85.input.tensors`, `mv2_u85.expected.tensors`
and `mv2_u85.summary.json` (addressable as `:mv2_u85.pte` etc.), written by
the SDK's `aot_compile` CLI (python/ethosu_sdk/cli), and, on an Ethos-U
target, verifies the program bit for bit against the TOSA reference model
(`verify`; report `mv2_u85.verification.json`). A model of your own: put
it in a py_library whose module has a function returning `(nn.Module,
example input tuple)`, pass `model = "pkg.module:function"` and
`model_deps = [":that_library"]`; its files reach the compile action as
inputs and its import paths as `--import_path`, so every model shares one
compiler and its persistent worker. Or bring the model as a file:
`model = "my_model.py"` (a file defining `ModelUnderTest` and
`ModelInputs`, ExecuTorch's convention) or
`model = "program.pt2"` (a float `torch.export.save`d program); any label
ending in `.py` or `.pt2` is taken as such a file.
"""

load("@rules_python//python:defs.bzl", "py_binary")
load(":host_transition.bzl", "to_host_platform")
load(":model_options.bzl", "MODEL_OPTION_ATTRS", "MODEL_OPTION_FLOATS", "MODEL_OPTION_UNSET")
load(":targets.bzl", "ETHOS_U_TARGETS", "TARGETS")
load(":worker.bzl", "WORKER_EXECUTION_REQUIREMENTS", "worker_arguments")

EthosuModelInfo = provider(
    doc = "A model compiled ahead of time for one target.",
    fields = {
        "pte": "File: the ExecuTorch program",
        "input": "File: .tensors, the input the references were computed with",
        "expected": "File: .tensors, the expected output (PyTorch quantized graph)",
        "summary": "File: JSON summary (delegation, sizes, Vela figures)",
        "intermediates": "File (directory) or None: TOSA flatbuffers and Vela reports",
        "verification": "File or None: the verification's JSON report (per-layer table)",
        "target": "string: the compile target",
        "eval_data": "list of File: the labelled evaluation samples (.npz), if any",
    },
)

_OUTPUTS = {
    "pte": "%{name}.pte",
    "input": "%{name}.input.tensors",
    "expected": "%{name}.expected.tensors",
    "summary": "%{name}.summary.json",
}

# The SDK's own Python root (`python/` of this repository, wherever it is
# checked out): the compiler has it already; a model's import paths leave it out.
_SDK_PYTHON = "/".join([p for p in [Label("//:defs.bzl").workspace_root, "python"] if p])

def _exec_dir(ctx, runfiles_path):
    """`<repo>/<dir>` in the runfiles tree -> `<dir>` in the execroot (`external/<repo>/<dir>` for another repository)."""
    repo, _, directory = runfiles_path.partition("/")
    root = "" if repo == ctx.workspace_name else "external/" + repo
    return "/".join([p for p in [root, directory] if p]) or "."

def _model_imports(ctx):
    """The model_deps' Python files, and the directories to import them from.

    The directories: each source's repository root and each `imports`
    entry, in the source tree and in the output tree (generated modules).
    The action takes the files as inputs, so every model shares the one
    compiler, and the one persistent worker, instead of a compiler binary
    per model.
    """
    sources = depset(transitive = [dep[PyInfo].transitive_sources for dep in ctx.attr.model_deps])
    directories = {}
    for f in sources.to_list():
        directories[f.owner.workspace_root or "."] = True
    for dep in ctx.attr.model_deps:
        for runfiles_path in dep[PyInfo].imports.to_list():
            directories[_exec_dir(ctx, runfiles_path)] = True
    roots = [d for d in directories if d != _SDK_PYTHON]
    return sources, roots + [ctx.bin_dir.path + ("/" + d if d != "." else "") for d in roots]

def _ethosu_model_impl(ctx):
    if ctx.attr.target not in TARGETS:
        fail("unknown target %r; targets: %s" % (ctx.attr.target, ", ".join(TARGETS)))
    outputs = [ctx.outputs.pte, ctx.outputs.input, ctx.outputs.expected, ctx.outputs.summary]

    # The compile options, as one JSON file (CompileOptions' field names;
    # python/ethosu_sdk/aot/options.py): only those set, the rest take
    # CompileOptions' defaults.
    values = {
        name: getattr(ctx.attr, name)
        for name, unset in MODEL_OPTION_UNSET.items()
        if getattr(ctx.attr, name) != unset
    }
    inputs = []
    if ctx.file.model_file:
        values["model"] = ctx.file.model_file.path
        inputs.append(ctx.file.model_file)
    else:
        values["model"] = ctx.attr.model
    values["target"] = ctx.attr.target
    if ctx.files.calibration:
        values["calibration_files"] = [f.path for f in ctx.files.calibration]
        inputs += ctx.files.calibration
    if ctx.file.state_dict:
        values["state_dict"] = ctx.file.state_dict.path
        inputs.append(ctx.file.state_dict)
    args = worker_arguments(ctx)
    args.add("--quiet")  # the log is shown only when the action fails
    model_sources, import_paths = _model_imports(ctx)
    args.add_all(import_paths, format_each = "--import_path=%s")
    args.add("--output=" + ctx.outputs.pte.path)
    tools = []
    if ctx.files.eval_data:
        # One directory of labelled .npz samples (python/ethosu_sdk/evaluate/dataset.py).
        directories = {f.dirname: True for f in ctx.files.eval_data}
        if len(directories) != 1:
            fail("eval_data: give the .npz files of one directory, got files from %s" % ", ".join(directories))
        values["eval_dir"] = ctx.files.eval_data[0].dirname
        args.add("--host_runner=" + ctx.executable._host_runner.path)
        inputs += ctx.files.eval_data
        tools.append(ctx.executable._host_runner)
    if ctx.attr.accuracy_tolerance and ctx.attr.verify != "off" and ctx.attr.target in ETHOS_U_TARGETS:
        # Each precision trial is verified in the compile action; the
        # shipped program by the verification action below.
        args.add("--npu_run=" + ctx.executable._npu_run.path)
        tools.append(ctx.executable._npu_run)

    # The verification is an action of its own (below): the compile action
    # only writes its inputs, so changing `verify` or the NPU model re-runs
    # no lowering.
    args.add("--verify=off")
    verify_dir = None
    if ctx.attr.verify != "off" and ctx.attr.target in ETHOS_U_TARGETS:
        verify_dir = ctx.actions.declare_directory(ctx.label.name + ".verify")
        values["verify_dir"] = verify_dir.path
        outputs.append(verify_dir)
    intermediates = None
    if ctx.attr.intermediates:
        intermediates = ctx.actions.declare_directory(ctx.label.name + ".intermediates")
        values["intermediates_dir"] = intermediates.path
        outputs.append(intermediates)
    options_file = ctx.actions.declare_file(ctx.label.name + ".options.json")
    ctx.actions.write(options_file, json.encode_indent(values) + "\n")
    args.add("--options=" + options_file.path)
    inputs.append(options_file)
    ctx.actions.run(
        executable = ctx.executable.compiler,
        arguments = [args],
        inputs = depset(inputs, transitive = [model_sources]),
        tools = tools,
        outputs = outputs,
        mnemonic = "EthosuModel",
        progress_message = "Compiling model %s for %s (%%{label})" % (ctx.attr.model, ctx.attr.target),
        # A fixed environment: hash seeds and thread counts change nothing in
        # the outputs, but keep the action independent of the caller's shell.
        env = {"PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1"},
        # A persistent worker imports torch and ExecuTorch once for many
        # models (python/ethosu_sdk/worker); one-shot where workers are off.
        execution_requirements = WORKER_EXECUTION_REQUIREMENTS,
    )
    files = [ctx.outputs.pte, ctx.outputs.input, ctx.outputs.expected, ctx.outputs.summary]
    verification = None
    if verify_dir:
        verification = ctx.actions.declare_file(ctx.label.name + ".verification.json")
        verify_args = ctx.actions.args()
        verify_args.add("--pte=" + ctx.outputs.pte.path)
        verify_args.add("--verify_dir=" + verify_dir.path)
        verify_args.add("--npu_run=" + ctx.executable._npu_run.path)
        verify_args.add("--mode=" + ctx.attr.verify)
        verify_args.add("--report_json=" + verification.path)
        verify_args.add("--quiet")  # the table is printed on a difference only
        ctx.actions.run(
            executable = ctx.executable._verifier,
            arguments = [verify_args],
            # The summary next to the .pte gives region 2's size (verify.py).
            inputs = [ctx.outputs.pte, ctx.outputs.summary, verify_dir],
            tools = [ctx.executable._npu_run],
            outputs = [verification],
            mnemonic = "EthosuVerify",
            progress_message = "Verifying %s against the TOSA reference model (%%{label})" % ctx.attr.model,
        )
        files.append(verification)
    return [
        DefaultInfo(files = depset(files + ([intermediates] if intermediates else []))),
        # A validation action: runs whenever the model is built, also as a
        # dependency of firmware, without delaying the actions that use it.
        OutputGroupInfo(
            _validation = depset([verification] if verification else []),
            verify_inputs = depset([verify_dir] if verify_dir else []),
        ),
        EthosuModelInfo(
            pte = ctx.outputs.pte,
            input = ctx.outputs.input,
            expected = ctx.outputs.expected,
            summary = ctx.outputs.summary,
            intermediates = intermediates,
            verification = verification,
            target = ctx.attr.target,
            eval_data = ctx.files.eval_data,
        ),
    ]

_ethosu_model = rule(
    implementation = _ethosu_model_impl,
    doc = "Runs aot_compile; see ethosu_model.",
    # Target-independent outputs: one AOT run serves host tests and firmware.
    cfg = to_host_platform,
    outputs = _OUTPUTS,
    attrs = dict(MODEL_OPTION_ATTRS, **{
        "model": attr.string(mandatory = True),
        "model_file": attr.label(allow_single_file = [".py", ".pt2"]),
        "model_deps": attr.label_list(providers = [PyInfo]),
        "target": attr.string(mandatory = True),
        "calibration": attr.label_list(allow_files = True),
        "state_dict": attr.label(allow_single_file = True),
        "intermediates": attr.bool(default = False),
        "verify": attr.string(default = "fail", values = ["fail", "warn", "off"]),
        "_verifier": attr.label(
            default = Label("//python/ethosu_sdk/cli:verify_model"),
            executable = True,
            cfg = "exec",
        ),
        "eval_data": attr.label_list(allow_files = [".npz"]),
        "_host_runner": attr.label(
            default = Label("//sim/host:host_runner"),
            executable = True,
            cfg = "exec",
        ),
        "_npu_run": attr.label(
            default = Label("//sim/host:npu_run"),
            executable = True,
            cfg = "exec",
        ),
        "compiler": attr.label(
            default = Label("//python/ethosu_sdk/cli:aot_compile_action"),
            executable = True,
            cfg = "exec",
        ),
    }),
)

def ethosu_model(
        name,
        model,
        target,
        calibration = [],
        state_dict = None,
        intermediates = False,
        verify = "fail",
        eval_data = [],
        model_deps = [],
        **kwargs):
    """Compiles `model` for `target`: `<name>.pte` plus references and a summary.

    Args:
      name: target name; outputs are `<name>.pte`, `<name>.input.tensors`,
        `<name>.expected.tensors`, `<name>.summary.json`.
      model: a zoo model name (python/ethosu_sdk/models),
        "package.module:function" returning (nn.Module, example inputs), or
        the label of a model file: `.py` defining ModelUnderTest and
        ModelInputs, or a float `torch.export`ed `.pt2`.
      target: ethos-u55-32/64/128/256, ethos-u65-256/512,
        ethos-u85-128/256/512/1024/2048, TOSA-1.0+INT, TOSA-1.0+FP or cpu.
      calibration: calibration sample files, one sample each (default: the
        example input): `.tensors`, `.npy` (one input), `.npz` (one array
        per input), or any files with `calibration_preprocess`.
      state_dict: optional state-dict file to load into the model.
      intermediates: also output `<name>.intermediates/` (TOSA flatbuffers,
        Vela reports, delegation table).
      verify: "fail" (default), "warn" or "off". On an Ethos-U target, an
        action after the compile runs each Ethos-U delegate's command stream
        on the SDK's functional NPU model and its TOSA graph on the TOSA
        reference model, with the delegate's integer inputs for the example
        input, and compares every output and every layer (Vela's debug
        database) bit for bit. The first line of its output names the first
        differing layer by PyTorch module path and source line; then the
        per-layer table (elements differing, histogram of model minus
        reference). "fail" fails the build on a difference, "warn" prints it.
        The table is `<name>.verification.json` (also on success).
      eval_data: labelled samples, the `.npz` files of one directory (an
        array `label`, the class index, and one array per input;
        python/ethosu_sdk/evaluate/dataset.py): the summary's `accuracy` is
        the top-1 of the float model, the quantized graph and the compiled
        program on the host runner (the functional NPU model).
      model_deps: py_library targets providing `model`'s module.
      **kwargs: every compile option of CompileOptions
        (python/ethosu_sdk/aot/options.py, each field's help; the attributes
        are generated into model_options.bzl): quantize, seed,
        calibration_preprocess, system_config, memory_mode, strict_export,
        tune, sram_budget_kib, tune_time_budget_s, input_layout, board,
        lowering_workarounds, accuracy_tolerance (with `eval_data`: each
        precision trial is verified unless `verify` is "off"), io. `aot_compile
        --help` prints the same text; and the common attributes
        (visibility, tags, testonly, ...).
    """
    model_file = None
    if model.endswith(".py") or model.endswith(".pt2"):
        model_file = model
    compiler = None

    # A model's own modules reach the shared compiler as inputs (`model_deps`,
    # --import_path). The precision tuner verifies each trial in the compile
    # action, so only its compiler is a binary of its own, with the
    # verification code (any other lowering stays independent of it and of
    # the NPU model).
    verifier = [Label("//python/ethosu_sdk/verify")] if kwargs.get("accuracy_tolerance") != None else []
    if verifier:
        compiler = name + ".aot_compile"
        py_binary(
            name = compiler,
            srcs = [Label("//python/ethosu_sdk/cli:aot_compile.py")],
            main = Label("//python/ethosu_sdk/cli:aot_compile.py"),
            deps = [Label("//python/ethosu_sdk/cli:aot_compile_lib")] + verifier,
            tags = ["manual"],
            visibility = ["//visibility:private"],
            testonly = kwargs.get("testonly", False),
        )

    # The rule holds an unset option as its "unset" value and a number it
    # has no attribute type for (a float) as a string.
    for option, unset in MODEL_OPTION_UNSET.items():
        if option in kwargs and kwargs[option] == None:
            kwargs[option] = unset
        elif option in MODEL_OPTION_FLOATS and option in kwargs:
            kwargs[option] = str(kwargs[option])
    _ethosu_model(
        name = name,
        model = model,
        model_file = model_file,
        target = target,
        calibration = calibration,
        state_dict = state_dict,
        intermediates = intermediates,
        verify = verify,
        eval_data = eval_data,
        model_deps = model_deps,
        compiler = compiler,
        **kwargs
    )
