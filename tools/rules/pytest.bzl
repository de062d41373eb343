"""py_pytest: a py_test whose test functions pytest collects."""

load("@rules_python//python:defs.bzl", "py_test")

def py_pytest(name, srcs, deps = [], args = [], data = [], **kwargs):
    """A py_test running pytest over `srcs`.

    Args:
      name: test name.
      srcs: test files (test_*.py or *_test.py); all are collected.
      deps: py_library dependencies.
      args: extra pytest arguments, after the files.
      data: runtime files.
      **kwargs: passed to py_test (size, tags, env, ...).
    """
    py_test(
        name = name,
        srcs = srcs + [Label("//tools/rules:pytest_main.py")],
        main = Label("//tools/rules:pytest_main.py"),
        args = ["$(rootpath %s)" % s for s in srcs] + args,
        data = data,
        deps = deps,
        **kwargs
    )

def nested_bazel_pytest(name, srcs, deps = [], data = [], env = {}, tags = [], **kwargs):
    """A py_pytest that drives a nested Bazel against the real source tree.

    The test finds the tree by following //:MODULE.bazel's runfile back to it
    and gives the nested Bazel the outer one's QEMU (tools/bazel's --repo_env)
    as ETHOSU_SDK_QEMU_RUNFILE. It cannot declare the tree as inputs:
    "external" keeps Bazel from caching its result, "no-remote" keeps it off
    remote caches and executors.

    Args:
      name: test name.
      srcs: test files.
      deps: py_library dependencies.
      data: more runfiles (outputs of the outer build to compare with).
      env: more environment variables for the test.
      tags: more tags (e.g. the full tier's, tools/rules/tiers.bzl).
      **kwargs: passed to py_pytest (size, timeout, ...).
    """
    py_pytest(
        name = name,
        srcs = srcs,
        data = [
            Label("//:MODULE.bazel"),
            "@ethosu_qemu//:qemu-system-arm",
        ] + data,
        env = dict(env, ETHOSU_SDK_QEMU_RUNFILE = "$(rootpath @ethosu_qemu//:qemu-system-arm)"),
        tags = [
            "external",
            "no-remote",
        ] + tags,
        deps = deps,
        **kwargs
    )
