"""sanitized_binary: a host cc_binary built with clang-19 and sanitizers,
whatever the command line says.

The transition does what --config=asan / --config=fuzz do (.bazelrc): it adds
the clang toolchain to --extra_toolchains and the sanitizer names to
--features, and sets --strip=never. So a plain `bazel test //...` still builds and runs the fuzz
smoke tests and the ASan robustness tests, in an output directory of their
own (the transition's configuration hash), without the user passing a
--config. Under the matching --config the transition changes nothing and the
binary is built once.
"""

_CLANG_TOOLCHAIN = "//toolchains/clang:toolchain"

# Feature sets of each mode (toolchains/clang/cc_toolchain_config.bzl).
SANITIZER_FEATURES = {
    "asan": ["asan", "ubsan"],
    "fuzz": ["asan", "ubsan", "fuzzer"],
}

_ALL_SANITIZER_FEATURES = ["asan", "ubsan", "fuzzer"]

def _sanitize_transition_impl(settings, attr):
    # Values already right are passed back as they came: a list that only
    # reads differently (a label's spelling, the order of features) would be
    # a second configuration writing the same output paths.
    toolchains = settings["//command_line_option:extra_toolchains"]
    names = [str(t) for t in toolchains]
    if _CLANG_TOOLCHAIN not in names and str(Label(_CLANG_TOOLCHAIN)) not in names:
        toolchains = [str(Label(_CLANG_TOOLCHAIN))] + names

    # Replace, not add to, the sanitizer features of the command line: an
    # asan binary under --config=fuzz must not get the fuzzer instrumentation.
    features = settings["//command_line_option:features"]
    wanted = [f for f in features if f not in _ALL_SANITIZER_FEATURES] + SANITIZER_FEATURES[attr.sanitizer]
    if sorted(wanted) != sorted(features):
        features = wanted
    return {
        "//command_line_option:extra_toolchains": toolchains,
        "//command_line_option:features": features,
        # fastbuild links with -Wl,-S by default: reports need line numbers.
        "//command_line_option:strip": "never",
    }

_sanitize_transition = transition(
    implementation = _sanitize_transition_impl,
    inputs = [
        "//command_line_option:extra_toolchains",
        "//command_line_option:features",
    ],
    outputs = [
        "//command_line_option:extra_toolchains",
        "//command_line_option:features",
        "//command_line_option:strip",
    ],
)

def _sanitized_binary_impl(ctx):
    binary = ctx.attr.binary[0]
    executable = binary[DefaultInfo].files_to_run.executable
    link = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = link, target_file = executable, is_executable = True)
    runfiles = ctx.runfiles(files = [link]).merge(binary[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = link, files = depset([link]), runfiles = runfiles)]

sanitized_binary = rule(
    implementation = _sanitized_binary_impl,
    doc = "The executable of `binary`, built for the host with clang-19 and the sanitizers of `sanitizer`.",
    attrs = {
        "binary": attr.label(
            mandatory = True,
            executable = True,
            cfg = _sanitize_transition,
            doc = "A host cc_binary.",
        ),
        "sanitizer": attr.string(
            mandatory = True,
            values = SANITIZER_FEATURES.keys(),
            doc = "asan: ASan + UBSan. fuzz: ASan + UBSan + libFuzzer instrumentation.",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    executable = True,
)
