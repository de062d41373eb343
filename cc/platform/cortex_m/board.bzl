"""cortex_m_board: a board's platform library (startup, linker scripts,
console, timer) for the Cortex-M boards."""

load("@rules_cc//cc:defs.bzl", "cc_library")

def cortex_m_board(name, board, memory_ld, srcs, deps = [], uart_base = None, fpgaio_base = None):
    """Declares the platform library of one Cortex-M board.

    The console is semihosting, or the board's CMSDK UART when the firmware
    is built with --//cc/platform:console=uart (firmware_image's `console`)
    and the board has one (`uart_base`). Exit is always semihosting.

    Args:
      name: library name.
      board: the //platforms/board constraint value this library needs.
      memory_ld: the board's MEMORY + region aliases (see sections.ld).
      srcs: the board's own sources (BoardName, a timer, ...).
      deps: more deps.
      uart_base: address of the board's console UART (CMSDK), if any.
      fpgaio_base: address of the board's MPS2/MPS3 FPGAIO block, whose
        counter is then the timer (fpgaio_timer.cc); else `srcs` or `deps`
        provide one.
    """
    sections = Label("//cc/platform/cortex_m:sections.ld")
    semihosting = [Label("//cc/platform/cortex_m:semihosting_console")]
    if uart_base:
        console_srcs = select({
            Label("//cc/platform:console_uart"): [Label("//cc/platform/cortex_m:cmsdk_uart_console.cc")],
            "//conditions:default": [],
        })
        console_deps = select({
            Label("//cc/platform:console_uart"): [],
            "//conditions:default": semihosting,
        })
    else:
        console_srcs, console_deps = [], semihosting
    defines = ["ESDK_UART_BASE=%s" % uart_base] if uart_base else []
    timer_srcs = []
    if fpgaio_base:
        timer_srcs = [Label("//cc/platform/cortex_m:fpgaio_timer.cc")]
        defines.append("ESDK_FPGAIO_BASE=%s" % fpgaio_base)
    cc_library(
        name = name,
        srcs = srcs + console_srcs + timer_srcs,
        local_defines = defines,
        additional_linker_inputs = [memory_ld, sections],
        # ld accumulates multiple -T scripts: memory first, then sections.
        linkopts = [
            "-nostartfiles",
            "-T$(location %s)" % memory_ld,
            "-T$(location %s)" % sections,
        ],
        target_compatible_with = [board],
        visibility = ["//visibility:public"],
        deps = [
            Label("//cc/platform:interface"),
            Label("//cc/platform/cortex_m:semihosting_exit"),
            Label("//cc/platform/cortex_m:startup"),
        ] + deps + console_deps,
        alwayslink = True,
    )
