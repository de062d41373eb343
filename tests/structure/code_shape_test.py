"""The code's shape, as issue 45 asks it: no function over 80 lines in the
CLIs, the report or the .pte runtime, and no import cycle in the Python
package (the checks in code_shape.py, over the sources in the runfiles)."""

import glob
import os

import code_shape
import pytest

MAX_LINES = 80
PYTHON = "python"
SHORT_PYTHON_DIRS = ("python/ethosu_sdk/cli", "python/ethosu_sdk/report")
CC_RUNTIME = "cc/runtime"


def _sources(directory: str, ext: str) -> list[str]:
    found = sorted(glob.glob(os.path.join(directory, "*" + ext)))
    assert found, f"no {ext} files under {directory} in the runfiles: the test's data lost them"
    return found


@pytest.mark.parametrize("directory", SHORT_PYTHON_DIRS)
def test_python_functions_are_short(directory: str) -> None:
    long = [f for p in _sources(directory, ".py") for f in code_shape.python_functions(p) if f.lines > MAX_LINES]
    assert not long, "split these functions:\n" + "\n".join(map(str, long))


def _long_cc_functions() -> list[code_shape.Function]:
    return [f for p in _sources(CC_RUNTIME, ".cc") for f in code_shape.cpp_functions(p) if f.lines > MAX_LINES]


def test_cc_runtime_functions_are_short() -> None:
    long = _long_cc_functions()
    assert not long, "split these functions:\n" + "\n".join(map(str, long))


def test_the_measures_see_long_functions(tmp_path) -> None:
    """The measures themselves: a 90-line function in each language is found."""
    py = tmp_path / "long.py"
    py.write_text("def f():\n" + "    x = 1\n" * 89)
    cc = tmp_path / "long.cc"
    cc.write_text("namespace n {\nint f(int a) {\n" + "  a += 1;  // }\n" * 88 + "}\n}  // namespace n\n")
    assert [(f.name, f.lines) for f in code_shape.python_functions(str(py))] == [("f", 90)]
    assert [(f.name, f.lines) for f in code_shape.cpp_functions(str(cc))] == [("f", 90)]


def test_no_import_cycle_in_python() -> None:
    modules = code_shape.python_modules(PYTHON, "ethosu_sdk")
    assert "ethosu_sdk.aot.options" in modules and "ethosu_sdk.cli.run_model" in modules, sorted(modules)
    found = code_shape.cycles(code_shape.import_graph(modules))
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_sees_a_cycle(tmp_path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("import typing\nif typing.TYPE_CHECKING:\n    from pkg.a import X\n")
    graph = code_shape.import_graph(code_shape.python_modules(str(tmp_path), "pkg"))
    assert code_shape.cycles(graph) == [["pkg.a", "pkg.b"]]
