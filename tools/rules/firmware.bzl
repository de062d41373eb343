"""Firmware images for a board, and running them on a simulated board.

`firmware_image` builds a cc_binary for a board's Bazel platform through a
transition, so `bazel build/run/test` need no --platforms flag. `firmware_run`
and `firmware_test` launch the image on the board's simulator (QEMU for the
open boards) via the host-side runner in python/ethosu_sdk/runner.
"""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("//platforms/boards:boards.bzl", BOARD_DESCRIPTORS = "BOARDS")
load(":launcher.bzl", "write_launcher")

# Each board's Bazel platform, by name (platforms/boards/).
BOARDS = {name: Label("//platforms:" + name) for name in BOARD_DESCRIPTORS}

FirmwareInfo = provider(
    doc = "A firmware image and the board it was linked for.",
    fields = {
        "elf": "File: the linked ELF image",
        "board": "string: a key of BOARDS",
    },
)

# --config=fvp: run on Arm's FVP of the board (where it has one) instead of
# the SDK's QEMU machine; the ELF is the same.
USE_FVP_ATTR = {
    "_use_fvp": attr.label(default = Label("//platforms:use_fvp")),
}

def fvp_args(ctx):
    """The runner's --fvp when --config=fvp asks for Arm's FVPs."""
    return ["--fvp"] if ctx.attr._use_fvp[BuildSettingInfo].value else []

def check_board(board):
    """Fails analysis with the allowed values when `board` is unknown."""
    if board not in BOARDS:
        fail("unknown board %r; known boards: %s" % (board, ", ".join(sorted(BOARDS))))

CONSOLES = ["semihosting", "uart"]
_CONSOLE_FLAG = str(Label("//cc/platform:console"))

def _board_transition_impl(settings, attr):
    # Rules without a `console` attribute keep the console they were given.
    console = getattr(attr, "console", None)
    if console not in CONSOLES:
        console = settings[_CONSOLE_FLAG]
    if attr.board not in BOARDS:
        # Left to the rule to report: a failing transition aborts the build
        # without a testable analysis error.
        return {"//command_line_option:platforms": settings["//command_line_option:platforms"], _CONSOLE_FLAG: console}
    return {"//command_line_option:platforms": str(BOARDS[attr.board]), _CONSOLE_FLAG: console}

board_transition = transition(
    implementation = _board_transition_impl,
    inputs = ["//command_line_option:platforms", _CONSOLE_FLAG],
    outputs = ["//command_line_option:platforms", _CONSOLE_FLAG],
)

def _firmware_image_impl(ctx):
    check_board(ctx.attr.board)
    if ctx.attr.console not in CONSOLES:
        fail("unknown console %r; consoles: %s" % (ctx.attr.console, ", ".join(CONSOLES)))
    binary = ctx.attr.binary[0]
    elf_in = binary[DefaultInfo].files_to_run.executable or binary[DefaultInfo].files.to_list()[0]
    elf = ctx.actions.declare_file(ctx.label.name + ".elf")
    ctx.actions.symlink(output = elf, target_file = elf_in)
    return [
        DefaultInfo(files = depset([elf])),
        FirmwareInfo(elf = elf, board = ctx.attr.board),
    ]

firmware_image = rule(
    implementation = _firmware_image_impl,
    doc = "A cc_binary built for a board's platform (Cortex-M, bare metal).",
    attrs = {
        "binary": attr.label(
            mandatory = True,
            cfg = board_transition,
            doc = "cc_binary of the firmware; built for `board`.",
        ),
        # Checked by the implementation, so the error names the choices.
        "board": attr.string(
            default = "qemu_an547",
            doc = "Board (Bazel platform) to build for: one of BOARDS.",
        ),
        "console": attr.string(
            default = "semihosting",
            doc = "semihosting, or uart (the board's CMSDK UART; exit stays semihosting).",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)

def _firmware_launcher_impl(ctx):
    info = ctx.attr.firmware[FirmwareInfo]
    args = [
        "--elf=" + info.elf.short_path,
        "--board=" + info.board,
        "--timeout=%d" % ctx.attr.timeout_seconds,
    ] + fvp_args(ctx)
    if ctx.attr.npu:
        args.append("--npu=" + ctx.attr.npu)
    if ctx.attr.npu_never_complete:
        args.append("--npu_never_complete")
    if ctx.attr.expect_exit >= 0:
        args.append("--expect_exit=%d" % ctx.attr.expect_exit)
    args += ["--expect_output=" + pattern for pattern in ctx.attr.expect_output]
    return [write_launcher(ctx, ctx.attr._runner, args, [info.elf])]

_LAUNCHER_ATTRS = {
    "firmware": attr.label(mandatory = True, providers = [FirmwareInfo], doc = "A firmware_image."),
    "timeout_seconds": attr.int(default = 300, doc = "Wall-clock limit of the simulation."),
    "expect_exit": attr.int(default = -1, doc = "Required exit status (-1: pass the firmware's own through)."),
    "expect_output": attr.string_list(doc = "Regexes the console output must match."),
    "npu": attr.string(doc = "The board's Ethos-U, e.g. ethos-u85-256 (default: the board's own)."),
    "npu_never_complete": attr.bool(doc = "QEMU fault injection: the NPU never completes a job."),
    "_runner": attr.label(
        default = Label("//python/ethosu_sdk/runner:run_firmware"),
        executable = True,
        cfg = "target",
    ),
} | USE_FVP_ATTR

firmware_run = rule(
    implementation = _firmware_launcher_impl,
    doc = "`bazel run` target: the firmware on its board's simulator.",
    attrs = _LAUNCHER_ATTRS,
    executable = True,
)

firmware_test = rule(
    implementation = _firmware_launcher_impl,
    doc = "`bazel test` target: the firmware on its simulator, with expectations.",
    attrs = _LAUNCHER_ATTRS,
    test = True,
)
