"""The host's configuration for outputs that do not depend on the target.

`to_host_platform` is an incoming-edge transition for rules whose outputs do
not depend on the target (the AOT step): whoever consumes them, from the top
level or from a firmware built for a board, gets the same configuration, so
the expensive action runs once.

`host_files` does the same for plain generated files (a genrule's .pte,
tensors or test cases): a firmware built for three boards, and a host test
beside them, otherwise run the generator once per configuration.
"""

_CONSOLE_FLAG = str(Label("//cc/platform:console"))

def _to_host_platform_impl(settings, _attr):
    return {
        "//command_line_option:platforms": str(settings["//command_line_option:host_platform"]),
        # A firmware's console (firmware_image's `console`) does not change
        # target-independent files: keep it out of their configuration.
        _CONSOLE_FLAG: "semihosting",
    }

to_host_platform = transition(
    implementation = _to_host_platform_impl,
    inputs = ["//command_line_option:host_platform"],
    outputs = ["//command_line_option:platforms", _CONSOLE_FLAG],
)

def _host_files_impl(ctx):
    return [DefaultInfo(files = depset(ctx.files.srcs))]

host_files = rule(
    implementation = _host_files_impl,
    doc = "The files of `srcs`, built in the host's configuration whoever asks.",
    attrs = {
        "srcs": attr.label_list(allow_files = True, cfg = to_host_platform),
    },
)
