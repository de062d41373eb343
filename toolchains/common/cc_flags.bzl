"""Action groups and a flag-set helper shared by the C/C++ toolchain
configurations (toolchains/arm_none_eabi, toolchains/clang)."""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "flag_group",
    "flag_set",
    "with_feature_set",
)

C_COMPILE = [ACTION_NAMES.c_compile, ACTION_NAMES.assemble, ACTION_NAMES.preprocess_assemble]
CXX_COMPILE = [ACTION_NAMES.cpp_compile, ACTION_NAMES.cpp_header_parsing, ACTION_NAMES.cpp_module_compile]
ALL_COMPILE = C_COMPILE + CXX_COMPILE
LINK = [ACTION_NAMES.cpp_link_executable, ACTION_NAMES.cpp_link_dynamic_library, ACTION_NAMES.cpp_link_nodeps_dynamic_library]

def flags(actions, flags, features = None):
    """A flag_set of `flags` for `actions`, only with `features` when given."""
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = features)] if features else [],
    )
