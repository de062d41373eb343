"""The SDK's qemu-system-arm (QEMU with the Ethos-U NPU device, qemu/) as a
file target: @ethosu_qemu//:qemu-system-arm.

tools/bazel builds that QEMU at bootstrap and passes its path as
--repo_env=ETHOSU_SDK_QEMU_BIN. The path is keyed by the sources QEMU is built
from, so an edit to the device gives a new path, this repository is fetched
again, and Bazel, which hashes the file, reruns what depends on it.
"""

_BUILD = """\
# The SDK's QEMU: {path}
exports_files(["qemu-system-arm"], visibility = ["//visibility:public"])
"""

# Without a QEMU, only what runs a firmware fails, with the reason, when it is
# built: a downstream that just builds firmware images needs no QEMU.
_MISSING_BUILD = """\
# No SDK QEMU: {reason}
genrule(
    name = "missing",
    outs = ["qemu-system-arm"],
    cmd = "echo 'error: {reason}' >&2; exit 1",
    visibility = ["//visibility:public"],
)
"""

def _ethosu_qemu_repo_impl(rctx):
    path = rctx.os.environ.get("ETHOSU_SDK_QEMU_BIN", "")
    if not path:
        reason = ("ETHOSU_SDK_QEMU_BIN is not set: run Bazel through the SDK's tools/bazel, which " +
                  "builds its QEMU with the Ethos-U device, or pass " +
                  "--repo_env=ETHOSU_SDK_QEMU_BIN=/path/to/qemu-system-arm")
    elif not rctx.path(path).exists:
        reason = "ETHOSU_SDK_QEMU_BIN=%s does not exist: run tools/bazel again to rebuild the SDK's QEMU" % path
    else:
        rctx.symlink(path, "qemu-system-arm")
        rctx.file("BUILD.bazel", _BUILD.format(path = path))
        return
    rctx.file("BUILD.bazel", _MISSING_BUILD.format(reason = reason))

ethosu_qemu_repo = repository_rule(
    implementation = _ethosu_qemu_repo_impl,
    environ = ["ETHOSU_SDK_QEMU_BIN"],
    local = True,
)

def _ethosu_qemu_impl(_mctx):
    ethosu_qemu_repo(name = "ethosu_qemu")

ethosu_qemu = module_extension(implementation = _ethosu_qemu_impl)
