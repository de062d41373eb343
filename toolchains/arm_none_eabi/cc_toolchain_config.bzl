"""C/C++ toolchain configuration for bare-metal Cortex-M with the Arm GNU
toolchain (arm-none-eabi-gcc, newlib).

Features a target or the command line can switch:
  semihosting  (default) newlib's rdimon: console and files through the host
  nosys        newlib's nosys stubs instead (for an FVP or silicon image)
  newlib_nano  (default) the size-optimised newlib
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
)
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("//toolchains/common:cc_flags.bzl", "ALL_COMPILE", "CXX_COMPILE", "LINK", "flags")

# Per-core code generation. -mcpu implies the FPU and MVE of each core; for
# the Cortex-M33 it implies the DSP extension and the single-precision FPU
# (GCC 14 defines __ARM_FEATURE_DSP and links the v8-m.main+fp/hard multilib).
# The Armv7E-M cores name their FPU: the Cortex-M4's is single precision
# (v7e-m+fp/hard multilib), the Cortex-M7's double precision (v7e-m+dp/hard),
# which a Cortex-M4 cannot execute. Both have the DSP extension.
_CPU_FLAGS = {
    "cortex-m4": ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mthumb", "-mfloat-abi=hard"],
    "cortex-m7": ["-mcpu=cortex-m7", "-mfpu=fpv5-d16", "-mthumb", "-mfloat-abi=hard"],
    "cortex-m33": ["-mcpu=cortex-m33", "-mthumb", "-mfloat-abi=hard"],
    "cortex-m55": ["-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"],
    "cortex-m85": ["-mcpu=cortex-m85", "-mthumb", "-mfloat-abi=hard"],
}

def _impl(ctx):
    prefix = ctx.attr.tool_prefix
    tools = ["ar", "cpp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "strip"]
    tool_paths = [tool_path(name = t, path = prefix + t) for t in tools]
    cpu_flags = _CPU_FLAGS[ctx.attr.cpu]

    features = [
        feature(name = "dbg"),
        feature(name = "opt"),
        feature(name = "fastbuild"),
        feature(name = "supports_pic", enabled = False),
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                flags(ALL_COMPILE, cpu_flags + [
                    "-ffunction-sections",
                    "-fdata-sections",
                    "-fno-common",
                    # Reproducible objects: no host paths or build times.
                    "-no-canonical-prefixes",
                    "-fno-canonical-system-headers",
                    "-Wno-builtin-macro-redefined",
                    "-D__DATE__=\"redacted\"",
                    "-D__TIMESTAMP__=\"redacted\"",
                    "-D__TIME__=\"redacted\"",
                ]),
                # The firmware runtime contract: no exceptions, no RTTI.
                flags(CXX_COMPILE, [
                    "-std=c++17",
                    "-fno-exceptions",
                    "-fno-rtti",
                    "-fno-threadsafe-statics",
                ]),
                # Even fastbuild optimises: an -O0 firmware is too slow on QEMU.
                flags(ALL_COMPILE, ["-O2", "-g"], ["fastbuild"]),
                flags(ALL_COMPILE, ["-O2", "-g"], ["opt"]),
                flags(ALL_COMPILE, ["-Og", "-g3"], ["dbg"]),
            ],
        ),
        feature(
            name = "random_seed",
            enabled = True,
            flag_sets = [flag_set(
                actions = CXX_COMPILE + [ACTION_NAMES.c_compile],
                flag_groups = [flag_group(
                    flags = ["-frandom-seed=%{output_file}"],
                    expand_if_available = "output_file",
                )],
            )],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [flags(LINK, cpu_flags + [
                "-no-canonical-prefixes",
                "-Wl,--gc-sections",
                "-Wl,--no-warn-rwx-segments",
            ])],
        ),
        feature(
            name = "newlib_nano",
            enabled = True,
            flag_sets = [flags(LINK, ["--specs=nano.specs"])],
        ),
        feature(
            name = "semihosting",
            enabled = True,
            provides = ["syscalls"],
            flag_sets = [flags(LINK, ["--specs=rdimon.specs"])],
        ),
        feature(
            name = "nosys",
            provides = ["syscalls"],
            flag_sets = [flags(LINK, ["--specs=nosys.specs"])],
        ),
        # The C++ runtime library; after the objects, where the linker needs it.
        feature(
            name = "cxx_runtime_libs",
            enabled = True,
            flag_sets = [flags(LINK, ["-Wl,--start-group", "-lstdc++", "-lm", "-lc", "-lgcc", "-Wl,--end-group"])],
        ),
    ]

    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "arm-none-eabi-" + ctx.attr.cpu,
        host_system_name = "local",
        target_system_name = "arm-none-eabi",
        target_cpu = ctx.attr.cpu,
        target_libc = "newlib",
        compiler = "gcc",
        abi_version = "eabi",
        abi_libc_version = "newlib",
        tool_paths = tool_paths,
        features = features,
        cxx_builtin_include_directories = ctx.attr.builtin_include_directories,
    )

arm_none_eabi_toolchain_config = rule(
    implementation = _impl,
    attrs = {
        "cpu": attr.string(mandatory = True, values = _CPU_FLAGS.keys()),
        "tool_prefix": attr.string(default = "/usr/bin/arm-none-eabi-"),
        "builtin_include_directories": attr.string_list(default = [
            "/usr/lib/gcc/arm-none-eabi",
            "/usr/include/newlib",
            "/usr/lib/arm-none-eabi/include",
        ]),
    },
    provides = [CcToolchainConfigInfo],
)
