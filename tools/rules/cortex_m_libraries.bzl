"""cortex_m_libraries: the static libraries of C++ targets, built for one
board's CPU (through the board's platform), for shipping in a release, and
their headers (output group "headers": ours only, as built for that board,
since firmware-only libraries exist only there)."""

load("@rules_cc//cc:defs.bzl", "CcInfo")
load(":firmware.bzl", "board_transition", "check_board")

def _impl(ctx):
    check_board(ctx.attr.board)
    archives = {}
    headers = []
    for dep in ctx.attr.deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for library in linker_input.libraries:
                archive = library.static_library or library.pic_static_library
                if archive:
                    archives[archive.path] = archive
        headers.append(dep[CcInfo].compilation_context.headers)
    ours = [f for f in depset(transitive = headers).to_list() if f.owner.workspace_name == ""]
    return [
        DefaultInfo(files = depset([archives[p] for p in sorted(archives)])),
        OutputGroupInfo(headers = depset(ours)),
    ]

cortex_m_libraries = rule(
    implementation = _impl,
    doc = "Every static library (.a) that `deps` link, built for `board`.",
    attrs = {
        "deps": attr.label_list(providers = [CcInfo], cfg = board_transition),
        "board": attr.string(mandatory = True, doc = "A key of BOARDS; sets the CPU."),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)
