"""cortex_m_board: a board's platform library (startup, linker scripts,
console, timer) for the Cortex-M boards."""

load("@rules_cc//cc:defs.bzl", "cc_library")

def cortex_m_board(name, board, memory_ld, srcs, deps = []):
    """Declares the platform library of one Cortex-M board.

    Args:
      name: library name.
      board: the //platforms/board constraint value this library needs.
      memory_ld: the board's MEMORY + region aliases (see sections.ld).
      srcs: the board's own sources (BoardName, a timer, ...).
      deps: more deps.
    """
    sections = Label("//cc/platform/cortex_m:sections.ld")
    cc_library(
        name = name,
        srcs = srcs,
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
            Label("//cc/platform/cortex_m:startup"),
        ] + deps,
        alwayslink = True,
    )
