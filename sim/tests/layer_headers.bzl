"""layer_headers: the headers a cc_library's own compile actions may read.

Writes a manifest (the C++ compiler first, then every header the library
and its deps declare) and carries those headers as runfiles, so a test can
compile a probe with exactly what Bazel gives that library's actions.
"""

load("@rules_cc//cc:find_cc_toolchain.bzl", "find_cc_toolchain", "use_cc_toolchain")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

def _layer_headers_impl(ctx):
    cc_toolchain = find_cc_toolchain(ctx)
    headers = ctx.attr.library[CcInfo].compilation_context.headers
    manifest = ctx.actions.declare_file(ctx.label.name + ".txt")
    lines = [cc_toolchain.compiler_executable] + [h.short_path for h in headers.to_list()]
    ctx.actions.write(manifest, "\n".join(lines) + "\n")
    runfiles = ctx.runfiles(files = [manifest], transitive_files = headers)
    return [DefaultInfo(files = depset([manifest]), runfiles = runfiles)]

layer_headers = rule(
    implementation = _layer_headers_impl,
    attrs = {
        "library": attr.label(mandatory = True, providers = [CcInfo]),
        "_cc_toolchain": attr.label(default = Label("@rules_cc//cc:current_cc_toolchain")),
    },
    toolchains = use_cc_toolchain(),
    fragments = ["cpp"],
)
