"""The FlatBuffers C++ runtime headers from the system (Debian's
libflatbuffers-dev, matching the flatc that generates our code). Header-only
use: reading and verifying needs no allocation, so it also serves bare metal."""

def _system_flatbuffers_impl(rctx):
    include = rctx.attr.include_dir
    if not rctx.path(include + "/flatbuffers/flatbuffers.h").exists:
        fail("FlatBuffers headers not found in %s: install Debian's libflatbuffers-dev " % include +
             "(tools/bazel's offline root has them)")
    rctx.symlink(include + "/flatbuffers", "include/flatbuffers")
    rctx.file("BUILD.bazel", """\\
package(default_visibility = ["//visibility:public"])

cc_library(
    name = "flatbuffers",
    hdrs = glob(["include/flatbuffers/**/*.h"]),
    includes = ["include"],
)
""")

system_flatbuffers = repository_rule(
    implementation = _system_flatbuffers_impl,
    attrs = {"include_dir": attr.string(default = "/usr/include")},
    local = True,
)

def _flatbuffers_ext_impl(_mctx):
    system_flatbuffers(name = "flatbuffers_system")

flatbuffers = module_extension(implementation = _flatbuffers_ext_impl)
