"""ethosu_firmware: a board firmware that runs one compiled model.

    ethosu_model(name = "mv2", model = "mobilenet_v2", target = "ethos-u85-256")
    ethosu_firmware(name = "mv2_fw", model = ":mv2")  # board: corstone320

links the model's .pte, reference input and expected output into the image
(embedded_blob, in DDR), registers only the CPU kernels the .pte uses
(selected_kernels), sizes the memory-planned buffers and the runtime arena
from the .pte and the NPU's fast scratch (in the board's SRAM) from the
model's summary, adds the Ethos-U backend (driving the board's NPU through its
registers) and the runner main (cc/runner/firmware_main.cc). The result is a
firmware_image.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")
load("//cc/kernels:selective.bzl", "selected_kernels")
load(":embed.bzl", "embedded_blob")
load(":firmware.bzl", "firmware_image")
load(":helper_attrs.bzl", "helper_attrs")

def _model_file(model, suffix):
    # ethosu_model's predeclared outputs: "<label>.pte" etc.
    return model + suffix

# The board a model's target runs on when ethosu_firmware is given none: an
# Ethos-U85 is built into Corstone-320 (SSE-320, Cortex-M85); every other
# target runs on the SSE-300 board QEMU models (Cortex-M55, U55/U65 slot).
DEFAULT_BOARD = "qemu_an547"
_TARGET_BOARDS = {"ethos-u85": "corstone320"}

def default_board(target):
    """The board of a model compiled for `target` (qemu_an547 when None: not known)."""
    for prefix, board in _TARGET_BOARDS.items():
        if target and target.startswith(prefix):
            return board
    return DEFAULT_BOARD

def _model_target(model):
    """The compile target of `model`, when known here.

    Known when `model` is an ethosu_model declared earlier in this package;
    None otherwise (a macro cannot see another package's rules).
    """
    if model.startswith(":"):
        name = model[1:]
    elif model.startswith("//" + native.package_name() + ":"):
        name = model.split(":", 1)[1]
    elif ":" not in model and "/" not in model:
        name = model
    else:
        return None
    rule = native.existing_rule(name)
    return rule.get("target") if rule else None

def ethosu_firmware(
        name,
        model,
        board = None,
        runtime_arena_bytes = 0,
        fast_scratch_bytes = -1,
        pte = None,
        input = None,
        expected = None,
        main = None,
        **kwargs):
    """A firmware_image `name` running `model` on `board`.

    Args:
      name: the firmware_image; helper targets are prefixed with it.
      model: an ethosu_model target (same or other package).
      board: qemu_an547, corstone300, corstone320, or a board without an
        NPU for a cortex_m model: qemu_an505 (Cortex-M33, a cortex-m33
        model), qemu_an386 (Cortex-M4, cortex-m4) or qemu_an500 (Cortex-M7,
        cortex-m7). Default: the model's target's board, corstone320 for an
        Ethos-U85 and qemu_an547 for the others (a model from another
        package: give `board` for a U85; the firmware build fails naming it
        otherwise). An Ethos-U85 on an SSE-300 board (qemu_an547,
        corstone300) builds only when `board` says so, and prints why that
        is unusual.
      runtime_arena_bytes: arena for method state and the NPU delegates'
        scratch (in the board's DDR); 0 (default): computed from the .pte
        (python/ethosu_sdk/firmware/gen_memory.py).
      fast_scratch_bytes: the NPU's fast scratch (Vela's region 2, the
        arena cache of its Dedicated_Sram memory modes) in the board's SRAM;
        -1 (default): what the model's summary says it needs.
      pte: a .pte to embed instead of the model's own (tests use a corrupted
        one); kernels, memory sizes, input and expected output still come
        from `model`.
      input: a .tensors input to embed instead of the model's reference
        input (a labelled sample in the program's layout and quantization).
      expected: the .tensors output `input` must give, instead of the
        model's reference output.
      main: a cc_library defining main() to link instead of the SDK's
        runner (//cc/runner:firmware_main); it finds the same embedded
        blobs and firmware memory (examples/lm's generation loop).
      **kwargs: common attributes (visibility, tags, testonly).
    """
    common = helper_attrs(kwargs)
    board_given = board != None
    if not board_given:
        board = default_board(_model_target(model))
    model_pte = _model_file(model, ".pte")
    blobs = {
        "pte": pte or model_pte,
        "input": input or _model_file(model, ".input.tensors"),
        "expected": expected or _model_file(model, ".expected.tensors"),
    }
    for key, src in blobs.items():
        embedded_blob(
            name = "%s_%s_blob" % (name, key),
            src = src,
            symbol = "esdk_model_" + key,
            visibility = ["//visibility:private"],
            **common
        )
    selected_kernels(
        name = name + "_kernels",
        ptes = [model_pte],
        visibility = ["//visibility:private"],
        **common
    )
    model_summary = _model_file(model, ".summary.json")
    native.genrule(
        name = name + "_memory_gen",
        srcs = [model_pte, model_summary],
        outs = [name + "_memory.cc"],
        # The board may be a select(): the string concatenation keeps it one.
        # A model whose Vela memory figures exceed the board's fails here.
        cmd = ("$(location %s) --pte=$(location %s) --summary=$(location %s) --runtime_arena_bytes=%d " +
               "--fast_scratch_bytes=%d --board_given=%s --out=$@ ") % (
            Label("//python/ethosu_sdk/firmware:gen_memory"),
            model_pte,
            model_summary,
            runtime_arena_bytes,
            fast_scratch_bytes,
            "true" if board_given else "false",
        ) + "--board=" + board,
        tools = [Label("//python/ethosu_sdk/firmware:gen_memory")],
        visibility = ["//visibility:private"],
        **common
    )
    cc_library(
        name = name + "_memory",
        srcs = [name + "_memory.cc"],
        deps = [Label("//cc/runner:firmware_memory")],
        visibility = ["//visibility:private"],
        **common
    )
    cc_binary(
        name = name + "_elf",
        deps = [
            main or Label("//cc/runner:firmware_main"),
            Label("//cc/platform:board"),
            ":%s_kernels" % name,
            ":%s_memory" % name,
        ] + [":%s_%s_blob" % (name, key) for key in blobs],
        # Only meaningful for a board: built through firmware_image.
        tags = ["manual"] + [t for t in common.get("tags", []) if t != "manual"],
        testonly = common.get("testonly", False),
        visibility = ["//visibility:private"],
    )
    firmware_image(
        name = name,
        binary = name + "_elf",
        board = board,
        **kwargs
    )
