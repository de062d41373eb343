"""tools/format --check fails on each kind of unformatted file and passes
after the fix mode has rewritten them (the real clang-format, ruff,
buildifier and mypy)."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

_WORKSPACE_ROOT = pathlib.Path(__file__).resolve().parents[2]

_UNFORMATTED = {
    "cc/a.cc": "int  f( int x ){return x+1;}\n",
    "python/pkg/b.py": "import os\nx = {  'a':1 }\n",
    "pkg/BUILD.bazel": 'genrule(name="a",outs=["a.txt"],cmd="touch $@")\n',
}
_FORMATTED = {
    "cc/a.cc": "int f(int x) { return x + 1; }\n",
    "python/pkg/b.py": 'x = {"a": 1}\n',
    "pkg/BUILD.bazel": 'genrule(\n    name = "a",\n    outs = ["a.txt"],\n    cmd = "touch $@",\n)\n',
}


def _tree(tmp_path: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    for name in ("ruff.toml", "mypy.ini", ".clang-format"):
        shutil.copy(_WORKSPACE_ROOT / name, tmp_path / name)
    (tmp_path / "python" / "ethosu_sdk").mkdir(parents=True)
    (tmp_path / "python" / "ethosu_sdk" / "__init__.py").write_text("")
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def _format(root: pathlib.Path, *flags: str) -> subprocess.CompletedProcess[str]:
    tools = {
        name: str(pathlib.Path(os.environ[env]).resolve())
        for name, env in (
            ("clang_format", "CLANG_FORMAT"),
            ("ruff", "RUFF"),
            ("mypy", "MYPY"),
            ("buildifier", "BUILDIFIER"),
        )
    }
    argv = [
        sys.executable,
        str(pathlib.Path(__file__).with_name("format.py")),
        f"--workspace={root}",
        *(f"--{k}={v}" for k, v in tools.items()),
        *flags,
    ]
    return subprocess.run(argv, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("rel", sorted(_UNFORMATTED))
def test_check_fails_on_one_unformatted_file(tmp_path: pathlib.Path, rel: str) -> None:
    files = dict(_FORMATTED)
    files[rel] = _UNFORMATTED[rel]
    result = _format(_tree(tmp_path, files), "--check")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAILED" in result.stdout
    # --check changes nothing.
    assert (tmp_path / rel).read_text() == _UNFORMATTED[rel]


def test_fix_then_check_passes(tmp_path: pathlib.Path) -> None:
    root = _tree(tmp_path, _UNFORMATTED)
    fixed = _format(root)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    for rel, text in _FORMATTED.items():
        assert (root / rel).read_text() == text, rel
    checked = _format(root, "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "4 files checked" in checked.stdout


def test_mypy_error_fails_the_check(tmp_path: pathlib.Path) -> None:
    files = dict(_FORMATTED)
    files["python/ethosu_sdk/typed.py"] = 'def f(x: int) -> int:\n    return x\n\n\nf("one")\n'
    result = _format(_tree(tmp_path, files), "--check")
    assert result.returncode == 1
    assert "mypy" in result.stdout and "arg-type" in result.stdout
