"""C/C++ toolchain configuration for the host (Linux x86-64) with the build
root's clang-19 and the system's libstdc++ and GNU binutils.

Not the default host toolchain (that stays the autodetected gcc): it is
selected with --extra_toolchains (see .bazelrc: --config=clang, asan, ubsan,
fuzz) or by the transition in sanitize.bzl.

Features the command line or a target can switch; toolchains without them
(gcc, arm-none-eabi) ignore the names, so --features=asan never reaches a
firmware:
  asan         AddressSanitizer
  ubsan        UndefinedBehaviorSanitizer, every check fatal
  fuzzer       coverage instrumentation for libFuzzer (-fsanitize=fuzzer-no-link)
  fuzzer_main  links libFuzzer's main(); requested by the fuzz binaries only
"""

load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "feature_set",
    "tool_path",
)
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("//toolchains/common:cc_flags.bzl", "ALL_COMPILE", "CXX_COMPILE", "LINK", "flags")

# Sanitizer builds are debugged from their reports: frames and line numbers,
# with enough optimisation that fuzzing is not dominated by -O0 code.
_SANITIZER_COMPILE = ["-O1", "-g", "-fno-omit-frame-pointer"]

def _sanitizer(name, compile_flags, link_flags):
    return feature(
        name = name,
        flag_sets = [
            flags(ALL_COMPILE, compile_flags),
            flags(LINK, link_flags),
        ],
    )

def _impl(ctx):
    tool_paths = [tool_path(name = name, path = path) for name, path in ctx.attr.tool_paths.items()]

    features = [
        feature(name = "dbg"),
        feature(name = "opt"),
        feature(name = "fastbuild"),
        feature(name = "supports_pic", enabled = True),
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                flags(ALL_COMPILE, [
                    "-fno-omit-frame-pointer",
                    # Reproducible objects: no host paths or build times.
                    "-no-canonical-prefixes",
                    "-Wno-builtin-macro-redefined",
                    "-D__DATE__=\"redacted\"",
                    "-D__TIMESTAMP__=\"redacted\"",
                    "-D__TIME__=\"redacted\"",
                ]),
                flags(CXX_COMPILE, ["-std=c++17"]),
                flags(ALL_COMPILE, ["-g"], ["dbg"]),
                flags(ALL_COMPILE, ["-O2", "-DNDEBUG", "-ffunction-sections", "-fdata-sections"], ["opt"]),
            ],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [
                flags(LINK, ["-no-canonical-prefixes", "-Wl,-z,relro,-z,now"]),
                flags(LINK, ["-Wl,--gc-sections"], ["opt"]),
            ],
        ),
        # clang (not clang++) drives the link, as gcc does in Bazel's own
        # toolchain: the C++ runtime is named explicitly, after the objects.
        feature(
            name = "cxx_runtime_libs",
            enabled = True,
            flag_sets = [flags(LINK, ["-lstdc++", "-lm"])],
        ),
        _sanitizer(
            "asan",
            _SANITIZER_COMPILE + ["-fsanitize=address"],
            ["-fsanitize=address", "-fsanitize-link-c++-runtime"],
        ),
        _sanitizer(
            "ubsan",
            # Every check aborts: a report that lets the run go on would pass
            # a test or a fuzz run that should fail.
            _SANITIZER_COMPILE + ["-fsanitize=undefined", "-fno-sanitize-recover=all"],
            ["-fsanitize=undefined", "-fsanitize-link-c++-runtime"],
        ),
        # Instrumentation only: libraries and ordinary tests link without
        # libFuzzer's main().
        _sanitizer(
            "fuzzer",
            ["-fsanitize=fuzzer-no-link", "-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"],
            ["-fsanitize=fuzzer-no-link"],
        ),
        feature(
            name = "fuzzer_main",
            requires = [feature_set(features = ["fuzzer"])],
            flag_sets = [flags(LINK, ["-fsanitize=fuzzer"])],
        ),
    ]

    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "host-clang-19",
        host_system_name = "local",
        target_system_name = "x86_64-linux-gnu",
        target_cpu = "k8",
        target_libc = "glibc",
        compiler = "clang",
        abi_version = "local",
        abi_libc_version = "local",
        tool_paths = tool_paths,
        features = features,
        cxx_builtin_include_directories = ctx.attr.builtin_include_directories,
    )

clang_toolchain_config = rule(
    implementation = _impl,
    attrs = {
        # The build root's packages (tools/bootstrap/root-packages.txt:
        # clang-19, libclang-rt-19-dev, binutils); a Bazel outside the root
        # needs the same Debian packages on the host.
        "tool_paths": attr.string_dict(default = {
            "ar": "/usr/bin/ar",
            "cpp": "/usr/bin/clang-cpp-19",
            "gcc": "/usr/bin/clang-19",
            "gcov": "/usr/bin/gcov",
            "ld": "/usr/bin/ld",
            "nm": "/usr/bin/nm",
            "objcopy": "/usr/bin/objcopy",
            "objdump": "/usr/bin/objdump",
            "strip": "/usr/bin/strip",
        }),
        "builtin_include_directories": attr.string_list(default = [
            "/usr/lib/llvm-19/lib/clang/19/include",
            # The same headers through the -no-canonical-prefixes resource dir.
            "/usr/lib/clang/19/include",
            "/usr/lib/gcc/x86_64-linux-gnu",
            "/usr/local/include",
            "/usr/include",
        ]),
    },
    provides = [CcToolchainConfigInfo],
)
