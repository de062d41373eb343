"""target_archives: the static libraries of C++ targets built for a board, so
tests can inspect the code that goes into firmware (e.g. its symbols)."""

load("//tools/rules:firmware.bzl", "board_transition")

def _target_archives_impl(ctx):
    archives = []
    for dep in ctx.attr.deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for library in linker_input.libraries:
                archive = library.static_library or library.pic_static_library
                if archive:
                    archives.append(archive)
    return [DefaultInfo(files = depset(archives))]

target_archives = rule(
    implementation = _target_archives_impl,
    doc = "Static libraries of `deps` and their dependencies, built for `board`.",
    attrs = {
        "deps": attr.label_list(cfg = board_transition, providers = [CcInfo]),
        "board": attr.string(default = "qemu_an547"),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)
