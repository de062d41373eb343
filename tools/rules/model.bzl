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
`model_deps = [":that_library"]`; the macro then builds a compiler binary
that includes it. Or bring the model as a file: `model = "my_model.py"` (a
file defining `ModelUnderTest` and `ModelInputs`, ExecuTorch's convention) or
`model = "program.pt2"` (a float `torch.export.save`d program); any label
ending in `.py` or `.pt2` is taken as such a file.
"""

load("@rules_python//python:defs.bzl", "py_binary")
load(":host_transition.bzl", "to_host_platform")
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

# The compile targets aot_compile accepts (python/ethosu_sdk/aot/targets.py's
# ALL_TARGETS; //tests/api:model_targets_test keeps the two lists equal).
TARGETS = [
    "ethos-u55-32",
    "ethos-u55-64",
    "ethos-u55-128",
    "ethos-u55-256",
    "ethos-u65-256",
    "ethos-u65-512",
    "ethos-u85-128",
    "ethos-u85-256",
    "ethos-u85-512",
    "ethos-u85-1024",
    "ethos-u85-2048",
    "TOSA-1.0+INT",
    "TOSA-1.0+FP",
    "cpu",
    "cortex-m55",
    "cortex-m85",
    "cortex-m33",
    "cortex-m4",
    "cortex-m7",
]

ETHOS_U_TARGETS = [t for t in TARGETS if t.startswith("ethos-u")]

_OUTPUTS = {
    "pte": "%{name}.pte",
    "input": "%{name}.input.tensors",
    "expected": "%{name}.expected.tensors",
    "summary": "%{name}.summary.json",
}

def _ethosu_model_impl(ctx):
    if ctx.attr.target not in TARGETS:
        fail("unknown target %r; targets: %s" % (ctx.attr.target, ", ".join(TARGETS)))
    outputs = [ctx.outputs.pte, ctx.outputs.input, ctx.outputs.expected, ctx.outputs.summary]
    args = worker_arguments(ctx)
    args.add("--quiet")  # the log is shown only when the action fails
    inputs = []
    if ctx.file.model_file:
        args.add("--model=" + ctx.file.model_file.path)
        inputs.append(ctx.file.model_file)
    else:
        args.add("--model=" + ctx.attr.model)
    args.add("--target=" + ctx.attr.target)
    args.add("--quantize=" + ctx.attr.quantize)
    args.add("--seed=%d" % ctx.attr.seed)
    args.add("--output=" + ctx.outputs.pte.path)
    if ctx.attr.system_config:
        args.add("--system_config=" + ctx.attr.system_config)
    if ctx.attr.memory_mode:
        args.add("--memory_mode=" + ctx.attr.memory_mode)
    if ctx.attr.board:
        args.add("--board=" + ctx.attr.board)
    if not ctx.attr.lowering_workarounds:
        args.add("--nolowering_workarounds")
    if ctx.attr.input_layout != "nchw":
        args.add("--input_layout=" + ctx.attr.input_layout)
    if ctx.attr.io != "float":
        args.add("--io=" + ctx.attr.io)
    if ctx.attr.tune:
        args.add("--tune")
        args.add("--sram_budget_kib=%d" % ctx.attr.sram_budget_kib)
        args.add("--tune_time_budget_s=%d" % ctx.attr.tune_time_budget_s)
    calibration = ctx.files.calibration
    for f in calibration:
        args.add("--calibration_file=" + f.path)
    if ctx.attr.calibration_preprocess:
        args.add("--calibration_preprocess=" + ctx.attr.calibration_preprocess)
    inputs += calibration
    if ctx.file.state_dict:
        args.add("--state_dict=" + ctx.file.state_dict.path)
        inputs.append(ctx.file.state_dict)
    tools = []
    if ctx.files.eval_data:
        # One directory of labelled .npz samples (python/ethosu_sdk/evaluate/dataset.py).
        directories = {f.dirname: True for f in ctx.files.eval_data}
        if len(directories) != 1:
            fail("eval_data: give the .npz files of one directory, got files from %s" % ", ".join(directories))
        args.add("--eval_data=" + ctx.files.eval_data[0].dirname)
        args.add("--host_runner=" + ctx.executable._host_runner.path)
        inputs += ctx.files.eval_data
        tools.append(ctx.executable._host_runner)
    if ctx.attr.accuracy_tolerance:
        args.add("--accuracy_tolerance=" + ctx.attr.accuracy_tolerance)
        if ctx.attr.verify != "off" and ctx.attr.target in ETHOS_U_TARGETS:
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
        args.add("--verify_dir=" + verify_dir.path)
        outputs.append(verify_dir)
    intermediates = None
    if ctx.attr.intermediates:
        intermediates = ctx.actions.declare_directory(ctx.label.name + ".intermediates")
        args.add("--intermediates_dir=" + intermediates.path)
        outputs.append(intermediates)
    ctx.actions.run(
        executable = ctx.executable.compiler,
        arguments = [args],
        inputs = inputs,
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
    attrs = {
        "model": attr.string(mandatory = True),
        "model_file": attr.label(allow_single_file = [".py", ".pt2"]),
        "target": attr.string(mandatory = True),
        "quantize": attr.string(default = "int8", values = ["int8", "a16w8", "none"]),
        "seed": attr.int(default = 0),
        "system_config": attr.string(),
        "memory_mode": attr.string(),
        "calibration": attr.label_list(allow_files = True),
        "calibration_preprocess": attr.string(),
        "state_dict": attr.label(allow_single_file = True),
        "intermediates": attr.bool(default = False),
        "input_layout": attr.string(default = "nchw", values = ["nchw", "nhwc"]),
        "io": attr.string(default = "float", values = ["float", "int8"]),
        "board": attr.string(),
        "tune": attr.bool(default = False),
        "sram_budget_kib": attr.int(default = 0),
        "tune_time_budget_s": attr.int(default = 600),
        "verify": attr.string(default = "fail", values = ["fail", "warn", "off"]),
        "lowering_workarounds": attr.bool(default = True),
        "_verifier": attr.label(
            default = Label("//python/ethosu_sdk/cli:verify_model"),
            executable = True,
            cfg = "exec",
        ),
        "eval_data": attr.label_list(allow_files = [".npz"]),
        "accuracy_tolerance": attr.string(),
        "_host_runner": attr.label(
            default = Label("//cc/runner:host_runner"),
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
    },
)

def ethosu_model(
        name,
        model,
        target,
        quantize = "int8",
        seed = 0,
        calibration = [],
        calibration_preprocess = None,
        system_config = None,
        memory_mode = None,
        state_dict = None,
        intermediates = False,
        input_layout = "nchw",
        io = "float",
        board = None,
        tune = False,
        sram_budget_kib = 0,
        tune_time_budget_s = 600,
        verify = "fail",
        lowering_workarounds = True,
        eval_data = [],
        accuracy_tolerance = None,
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
      quantize: "int8", "a16w8" or "none" (float: TOSA-1.0+FP and cpu).
      seed: seed of the zoo model's weights and example input.
      calibration: calibration sample files, one sample each (default: the
        example input): `.tensors`, `.npy` (one input), `.npz` (one array
        per input), or any files with `calibration_preprocess`.
      calibration_preprocess: "package.module:function" (in `model_deps`)
        called with each calibration file's path, returning the model's
        inputs: e.g. decode, resize and normalise an image.
      system_config: Vela system config (default: ExecuTorch's per family).
      memory_mode: Vela memory mode (default: ExecuTorch's per family).
      state_dict: optional state-dict file to load into the model.
      intermediates: also output `<name>.intermediates/` (TOSA flatbuffers,
        Vela reports, delegation table).
      input_layout: "nchw" (PyTorch's) or "nhwc": 4-D inputs channels-last,
        so the program takes images pixel by pixel with the channels
        innermost and the NPU does no input transpose. `<name>.input.tensors`
        holds the input in that memory order.
      io: "float" (default) or "int8" (with quantize = "int8"): the program
        takes and returns the quantized tensors, its input quantize and
        output dequantize folded out (python/ethosu_sdk/aot/integer_io.py);
        the reference files hold int8 tensors with their scales and zero
        points.
      board: the board the model will run on (qemu_an547, corstone300,
        corstone320): the compilation fails, naming the sizes, when Vela's
        schedule does not fit its memories; with `tune`, the default
        `sram_budget_kib` is its SRAM.
      tune: search the input layout (for a 4-D input) and Vela's options
        (memory mode, optimisation strategy, arena cache size) for the
        lowest total_cycles that fits
        `sram_budget_kib` (python/ethosu_sdk/aot/search/tuner.py); the search is in
        the summary and the run report. `system_config`/`memory_mode` are
        then the starting point only.
      sram_budget_kib: with `tune`: the SRAM (KiB) the NPU may use.
      tune_time_budget_s: with `tune`: seconds after which no more
        configurations are tried.
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
      lowering_workarounds: apply the SDK's fixes of ExecuTorch lowering
        bugs (python/ethosu_sdk/aot/workarounds/lowering_workarounds.py); False only to
        show what they fix.
      eval_data: labelled samples, the `.npz` files of one directory (an
        array `label`, the class index, and one array per input;
        python/ethosu_sdk/evaluate/dataset.py): the summary's `accuracy` is
        the top-1 of the float model, the quantized graph and the compiled
        program on the host runner (the functional NPU model).
      accuracy_tolerance: with `eval_data`: points of top-1 against the
        float model the program may lose; the precision tuner
        (python/ethosu_sdk/aot/search/precision.py) compiles int8, 16-bit
        activations on the worst layers and A16W8 (each verified, unless
        `verify` is "off"), and keeps the lowest total_cycles within the
        tolerance; every trial is in the summary.
      model_deps: py_library targets providing `model`'s module.
      **kwargs: common attributes (visibility, tags, testonly, ...).
    """
    model_file = None
    if model.endswith(".py") or model.endswith(".pt2"):
        model_file = model
    compiler = None

    # The precision tuner verifies each trial in the compile action, so only
    # its compiler takes the verification code (any other lowering stays
    # independent of it and of the NPU model).
    verifier = [Label("//python/ethosu_sdk/verify")] if accuracy_tolerance != None else []
    if model_deps or verifier:
        compiler = name + ".aot_compile"
        py_binary(
            name = compiler,
            srcs = [Label("//python/ethosu_sdk/cli:aot_compile.py")],
            main = Label("//python/ethosu_sdk/cli:aot_compile.py"),
            deps = [Label("//python/ethosu_sdk/cli:aot_compile_lib")] + model_deps + verifier,
            tags = ["manual"],
            visibility = ["//visibility:private"],
            testonly = kwargs.get("testonly", False),
        )
    _ethosu_model(
        name = name,
        model = model,
        model_file = model_file,
        target = target,
        quantize = quantize,
        seed = seed,
        calibration = calibration,
        calibration_preprocess = calibration_preprocess or "",
        system_config = system_config or "",
        memory_mode = memory_mode or "",
        state_dict = state_dict,
        intermediates = intermediates,
        input_layout = input_layout,
        io = io,
        board = board or "",
        tune = tune,
        sram_budget_kib = sram_budget_kib,
        tune_time_budget_s = tune_time_budget_s,
        verify = verify,
        lowering_workarounds = lowering_workarounds,
        eval_data = eval_data,
        accuracy_tolerance = "" if accuracy_tolerance == None else str(accuracy_tolerance),
        compiler = compiler,
        **kwargs
    )
