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
