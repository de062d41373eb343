"""Registers the SDK's pinned Python venv as Bazel's Python toolchain.

tools/bazel creates the venv (python/requirements.lock) and passes its
interpreter as --repo_env=ETHOSU_SDK_PYTHON. The interpreter stays outside
Bazel's sandbox on purpose: torch and executorch are ~2 GB of native code that
Bazel gains nothing from copying.
"""

_BUILD = """\
load("@bazel_tools//tools/python:toolchain.bzl", "py_runtime_pair")

py_runtime(
    name = "python3",
    interpreter_path = "{interpreter}",
    python_version = "PY3",
    stub_shebang = "#!{interpreter}",
)

py_runtime_pair(
    name = "runtime_pair",
    py3_runtime = ":python3",
)

toolchain(
    name = "toolchain",
    toolchain = ":runtime_pair",
    toolchain_type = "@bazel_tools//tools/python:toolchain_type",
)

exports_files(["interpreter.txt"])
"""

def _sdk_python_repo_impl(rctx):
    interpreter = rctx.os.environ.get("ETHOSU_SDK_PYTHON", "")
    if not interpreter:
        found = rctx.which("python3")
        if not found:
            fail("No Python: run Bazel through tools/bazel (it builds the SDK's venv), " +
                 "or set --repo_env=ETHOSU_SDK_PYTHON=/path/to/venv/bin/python3")
        interpreter = str(found)

        # buildifier: disable=print (a repository rule has no other way to warn)
        print("WARNING: ETHOSU_SDK_PYTHON is unset; using %s, which may lack torch/executorch. " % interpreter +
              "Run Bazel through tools/bazel to get the pinned venv.")
    rctx.file("interpreter.txt", interpreter + "\n")
    rctx.file("BUILD.bazel", _BUILD.format(interpreter = interpreter))

sdk_python_repo = repository_rule(
    implementation = _sdk_python_repo_impl,
    environ = ["ETHOSU_SDK_PYTHON"],
    local = True,
)

_FIND_EXECUTORCH = """
import importlib.util, sys
spec = importlib.util.find_spec("executorch")
if spec is None or not spec.submodule_search_locations:
    sys.exit("executorch is not installed in this interpreter")
print(list(spec.submodule_search_locations)[0])
"""

_EXECUTORCH_BUILD = """\
# Files of the installed executorch package that the SDK builds from: the
# .pte schema (never copied into the repository).
package(default_visibility = ["//visibility:public"])

exports_files(["schema/program.fbs", "schema/scalar_type.fbs"])

filegroup(
    name = "program_schema",
    srcs = ["schema/program.fbs", "schema/scalar_type.fbs"],
)
"""

def _executorch_files_repo_impl(rctx):
    interpreter = rctx.os.environ.get("ETHOSU_SDK_PYTHON", "") or "python3"
    result = rctx.execute([interpreter, "-c", _FIND_EXECUTORCH])
    if result.return_code != 0:
        fail("Cannot locate the executorch package with %s: %s" % (interpreter, result.stderr))
    package = result.stdout.strip()
    for name in ["program.fbs", "scalar_type.fbs"]:
        rctx.symlink(package + "/schema/" + name, "schema/" + name)
    rctx.file("BUILD.bazel", _EXECUTORCH_BUILD)

executorch_files_repo = repository_rule(
    implementation = _executorch_files_repo_impl,
    environ = ["ETHOSU_SDK_PYTHON"],
    local = True,
)

def _python_venv_impl(_mctx):
    sdk_python_repo(name = "sdk_python")
    executorch_files_repo(name = "executorch_files")

python_venv = module_extension(implementation = _python_venv_impl)
