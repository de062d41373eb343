"""cortex_m_board: a board's platform library (startup, linker scripts,
console, timer, name and NPU location) from its descriptor
(platforms/boards/<board>.bzl)."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("//platforms/boards:generate.bzl", "board_memory_ld")

def _hex(value):
    return "0x%X" % value

def cortex_m_board(name, board, srcs = []):
    """Declares the platform library `name` of one Cortex-M board.

    The console is semihosting, or the board's CMSDK UART when the firmware
    is built with --//cc/platform:console=uart (firmware_image's `console`)
    and the board has one (`uart_base`). Exit is always semihosting. The
    timer is the board's FPGAIO counter (`fpgaio_base`, counting at
    `fpgaio_hz`) or the core's DWT cycle counter at `dwt_hz`.

    Args:
      name: library name.
      board: the board's descriptor (a value of BOARDS in
        //platforms/boards:boards.bzl).
      srcs: the board's own code, if it needs any beyond the descriptor.
    """
    sections = Label("//cc/platform/cortex_m:sections.ld")
    memory_ld = name + "_memory"
    board_memory_ld(
        name = memory_ld,
        board = board["name"],
        visibility = ["//visibility:public"],
    )
    semihosting = [Label("//cc/platform/cortex_m:semihosting_console")]
    npu = board["npu"]
    defines = [
        "ESDK_BOARD_NAME=" + board["name"],
        "ESDK_NPU_BASE=%s" % (_hex(npu["base"]) if npu else "0"),
        "ESDK_NPU_IRQ=%d" % (npu["irq"] if npu else -1),
    ]
    if board["uart_base"]:
        console_srcs = select({
            Label("//cc/platform:console_uart"): [Label("//cc/platform/cortex_m:cmsdk_uart_console.cc")],
            "//conditions:default": [],
        })
        console_deps = select({
            Label("//cc/platform:console_uart"): [],
            "//conditions:default": semihosting,
        })
        defines.append("ESDK_UART_BASE=%s" % _hex(board["uart_base"]))
    else:
        console_srcs, console_deps = [], semihosting
    if board["fpgaio_base"]:
        timer_src = Label("//cc/platform/cortex_m:fpgaio_timer.cc")
        defines.append("ESDK_FPGAIO_BASE=%s" % _hex(board["fpgaio_base"]))
        defines.append("ESDK_FPGAIO_HZ=%d" % board["fpgaio_hz"])
    elif board["dwt_hz"]:
        timer_src = Label("//cc/platform/cortex_m:dwt_timer.cc")
        defines.append("ESDK_DWT_HZ=%d" % board["dwt_hz"])
    else:
        fail("board %s: its descriptor names no timer (fpgaio_base or dwt_hz)" % board["name"])
    cc_library(
        name = name,
        srcs = srcs + [Label("//cc/platform/cortex_m:board_identity.cc"), timer_src] + console_srcs,
        local_defines = defines,
        additional_linker_inputs = [memory_ld, sections],
        # ld accumulates multiple -T scripts: memory first, then sections.
        linkopts = [
            "-nostartfiles",
            "-T$(location %s)" % memory_ld,
            "-T$(location %s)" % sections,
        ],
        target_compatible_with = [Label("//platforms/board:" + board["name"])],
        visibility = ["//visibility:public"],
        deps = [
            Label("//cc/platform:interface"),
            Label("//cc/platform/cortex_m:semihosting_exit"),
            Label("//cc/platform/cortex_m:startup"),
        ] + console_deps,
        alwayslink = True,
    )
