"""The formatters and linters that tools/bazel installs
(tools/bootstrap/bootstrap_format.sh) as @format_tools//:clang-format, :ruff,
:mypy and :buildifier, for //tools:format.

tools/bazel passes their directory as --repo_env=ETHOSU_SDK_FORMAT_TOOLS; the
directory is keyed by the lock file and the buildifier pin, so a new pin gives
a new path and this repository is fetched again.
"""

_TOOLS = ["clang-format", "ruff", "mypy", "buildifier"]

_BUILD = """\
# The format tools in {path}
exports_files({tools}, visibility = ["//visibility:public"])
"""

# Without the tools only //tools:format fails, with the reason, when built.
_MISSING_BUILD = """\
# No format tools: {reason}
[genrule(
    name = "missing_" + tool,
    outs = [tool],
    cmd = "echo 'error: {reason}' >&2; exit 1",
    visibility = ["//visibility:public"],
) for tool in {tools}]
"""

def _format_tools_repo_impl(rctx):
    path = rctx.os.environ.get("ETHOSU_SDK_FORMAT_TOOLS", "")
    if not path:
        reason = ("ETHOSU_SDK_FORMAT_TOOLS is not set: run Bazel through the SDK's tools/bazel, " +
                  "which installs the format tools")
    elif not rctx.path(path + "/.ethosu-sdk-complete").exists:
        reason = "ETHOSU_SDK_FORMAT_TOOLS=%s is incomplete: run tools/bazel again" % path
    else:
        for tool in _TOOLS:
            rctx.symlink(path + "/" + tool, tool)
        rctx.file("BUILD.bazel", _BUILD.format(path = path, tools = repr(_TOOLS)))
        return
    rctx.file("BUILD.bazel", _MISSING_BUILD.format(reason = reason, tools = repr(_TOOLS)))

format_tools_repo = repository_rule(
    implementation = _format_tools_repo_impl,
    environ = ["ETHOSU_SDK_FORMAT_TOOLS"],
    local = True,
)

def _format_tools_impl(_mctx):
    format_tools_repo(name = "format_tools")

format_tools = module_extension(implementation = _format_tools_impl)
