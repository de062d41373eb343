"""Files generated from the board descriptors (boards.bzl): a board's linker
MEMORY block, and the Python module of every board's descriptor."""

load(":boards.bzl", "BOARDS")
load(":units.bzl", "KIB", "MIB")

def _ld_size(length):
    # The linker script's own notation where it is exact: 512K, 2M.
    if length % MIB == 0:
        return "%dM" % (length // MIB)
    if length % KIB == 0:
        return "%dK" % (length // KIB)
    return "0x%X" % length

def _hex8(value):
    # Starlark's % has no field width: pad by hand to 0x%08X.
    digits = "%X" % value
    return "0x" + "0" * (8 - len(digits)) + digits

def memory_ld_text(board):
    """`board`'s MEMORY block and the region aliases sections.ld places in."""
    lines = [
        "/* Generated from platforms/boards/%s.bzl: do not edit. */" % board["name"],
        "MEMORY",
        "{",
    ]
    for region in board["memory"]:
        lines.append("  %s (%s) : ORIGIN = %s, LENGTH = %s" % (
            region["name"],
            region["attributes"],
            _hex8(region["origin"]),
            _ld_size(region["length"]),
        ))
    lines.append("}")
    for role, region in board["roles"].items():
        lines.append("REGION_ALIAS(\"%s\", %s);" % (role, region))
    return "\n".join(lines) + "\n"

def _board_memory_ld_impl(ctx):
    if ctx.attr.board not in BOARDS:
        fail("unknown board %r; known boards: %s" % (ctx.attr.board, ", ".join(sorted(BOARDS))))
    out = ctx.actions.declare_file(ctx.label.name + ".ld")
    ctx.actions.write(out, memory_ld_text(BOARDS[ctx.attr.board]))
    return [DefaultInfo(files = depset([out]))]

board_memory_ld = rule(
    implementation = _board_memory_ld_impl,
    doc = "A board's linker MEMORY block (<name>.ld), from its descriptor.",
    attrs = {"board": attr.string(mandatory = True, doc = "A key of BOARDS.")},
)

def _board_table_py_impl(ctx):
    out = ctx.actions.declare_file(ctx.attr.out)
    ctx.actions.write(out, "\n".join([
        '"""Generated from platforms/boards/*.bzl: every board\'s descriptor."""',
        "",
        "from typing import Any",
        "",
        # Starlark's repr of dicts, lists, strings, ints and None is Python.
        "BOARDS: dict[str, dict[str, Any]] = " + repr(BOARDS),
        "",
    ]))
    return [DefaultInfo(files = depset([out]))]

board_table_py = rule(
    implementation = _board_table_py_impl,
    doc = "A Python module whose BOARDS maps each board's name to its descriptor.",
    attrs = {"out": attr.string(mandatory = True, doc = "The module's file name.")},
)
