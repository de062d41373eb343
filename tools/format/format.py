"""Formats the SDK's sources, or checks them (--check, what .ci/run does).

    tools/bazel run //tools:format             # rewrite files in place
    tools/bazel run //tools:format -- --check  # report, change nothing, exit 1 if any

C and C++: clang-format (.clang-format). Python: ruff format and ruff check
(ruff.toml). Starlark: buildifier with its lint. Types: mypy over python/
(mypy.ini). The tools come from tools/format/requirements.lock and
buildifier.pin, installed by tools/bootstrap/bootstrap_format.sh.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence

from absl import app, flags

_CHECK = flags.DEFINE_bool("check", False, "Report what is not formatted instead of rewriting it.")
_WORKSPACE = flags.DEFINE_string(
    "workspace", None, "The tree to format (default: $BUILD_WORKSPACE_DIRECTORY, set by `bazel run`)."
)
_CLANG_FORMAT = flags.DEFINE_string("clang_format", None, "clang-format binary.")
_RUFF = flags.DEFINE_string("ruff", None, "ruff binary.")
_BUILDIFIER = flags.DEFINE_string("buildifier", None, "buildifier binary.")
_MYPY = flags.DEFINE_string("mypy", None, "mypy entry point.")

# Never descended into: VCS data, Bazel's output links, caches, scratch.
_SKIP_DIRS = {".git", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".x", "bazel-reports"}
# QEMU's own style governs QEMU-derived code; stand-in modules and system
# headers under third_party are not ours to restyle.
_CPP_EXCLUDED = ("qemu/hw/", "qemu/patches/", "third_party/")
_CLANG_FORMAT_FINDING = re.compile(r"^(\S+?):\d+:\d+: (?:warning|error):", re.MULTILINE)
_CPP_SUFFIXES = {".c", ".cc", ".cpp", ".h", ".hpp"}
_STARLARK_NAMES = {"BUILD", "BUILD.bazel", "MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel"}
# Buildifier warnings the tree is held to (its defaults less the ones about
# documentation style, and less loading sh_* from rules_shell, which the
# offline build root does not have: Bazel 7's native sh_test is used);
# see buildtools' WARNINGS.md.
_BUILDIFIER_WARNINGS = "-native-sh-test,-native-sh-binary,-function-docstring,-function-docstring-args,-function-docstring-return,-module-docstring"


@dataclasses.dataclass(frozen=True)
class Sources:
    cpp: list[pathlib.Path]
    python: list[pathlib.Path]
    starlark: list[pathlib.Path]


def _walk(root: pathlib.Path) -> Iterator[pathlib.Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        rel = pathlib.Path(dirpath).relative_to(root)
        dirnames[:] = sorted(
            d for d in dirnames if d not in _SKIP_DIRS and not (rel == pathlib.Path(".") and d.startswith("bazel-"))
        )
        for name in sorted(filenames):
            yield (rel / name) if rel != pathlib.Path(".") else pathlib.Path(name)


def collect(root: pathlib.Path) -> Sources:
    cpp: list[pathlib.Path] = []
    python: list[pathlib.Path] = []
    starlark: list[pathlib.Path] = []
    for path in _walk(root):
        text = path.as_posix()
        if path.suffix in _CPP_SUFFIXES and not text.startswith(_CPP_EXCLUDED):
            cpp.append(path)
        elif path.suffix == ".py":
            python.append(path)
        elif path.name in _STARLARK_NAMES or path.suffix == ".bzl":
            starlark.append(path)
    return Sources(cpp=cpp, python=python, starlark=starlark)


@dataclasses.dataclass
class Outcome:
    tool: str
    ok: bool
    output: str


def _run(tool: str, argv: Sequence[str], root: pathlib.Path) -> Outcome:
    proc = subprocess.run(list(argv), cwd=root, capture_output=True, text=True, check=False)
    return Outcome(tool, proc.returncode == 0, (proc.stdout + proc.stderr).strip())


def _batches(paths: Sequence[pathlib.Path], size: int = 200) -> Iterator[list[str]]:
    for start in range(0, len(paths), size):
        yield [p.as_posix() for p in paths[start : start + size]]


def run_tools(root: pathlib.Path, sources: Sources, check: bool) -> list[Outcome]:
    outcomes: list[Outcome] = []
    clang_format = _tool(_CLANG_FORMAT.value, "clang-format")
    for batch in _batches(sources.cpp):
        mode = ["--dry-run", "--Werror"] if check else ["-i"]
        outcome = _run("clang-format", [clang_format, *mode, *batch], root)
        # --dry-run prints every change; a list of files is what a person acts on.
        files = sorted({m.group(1) for m in _CLANG_FORMAT_FINDING.finditer(outcome.output)})
        if files:
            outcome.output = "\n".join(f"needs formatting: {f}" for f in files)
        outcomes.append(outcome)
    ruff = _tool(_RUFF.value, "ruff")
    files = [p.as_posix() for p in sources.python]
    if files:
        # Fixes first (say, an unused import removed), then the layout.
        fix = [] if check else ["--fix"]
        outcomes.append(_run("ruff check", [ruff, "check", "--output-format=concise", *fix, *files], root))
        outcomes.append(_run("ruff format", [ruff, "format", *(["--check"] if check else []), *files], root))
    buildifier = _tool(_BUILDIFIER.value, "buildifier")
    for batch in _batches(sources.starlark):
        mode = ["--mode=check", "--lint=warn"] if check else ["--mode=fix", "--lint=fix"]
        outcomes.append(_run("buildifier", [buildifier, *mode, f"--warnings={_BUILDIFIER_WARNINGS}", *batch], root))
    mypy = _tool(_MYPY.value, "mypy")
    outcomes.append(
        _run(
            "mypy",
            [mypy, "--config-file", str(root / "mypy.ini"), "--python-executable", sys.executable, "ethosu_sdk"],
            root / "python",
        )
    )
    return outcomes


def _tool(path: str | None, name: str) -> str:
    if not path:
        raise SystemExit(f"format: error: no --{name.replace('-', '_')}: run it as `tools/bazel run //tools:format`")
    resolved = pathlib.Path(path).resolve()
    if not resolved.exists():
        raise SystemExit(
            f"format: error: {name} not found at {path}: run tools/bazel again to install the format tools"
        )
    return str(resolved)


def main(argv: Sequence[str]) -> int:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    workspace = _WORKSPACE.value or os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    if not workspace:
        raise SystemExit("format: error: no workspace: run it as `tools/bazel run //tools:format` or pass --workspace")
    root = pathlib.Path(workspace).resolve()
    sources = collect(root)
    outcomes = run_tools(root, sources, _CHECK.value)
    failed = [o for o in outcomes if not o.ok]
    for outcome in failed:
        print(f"--- {outcome.tool}\n{outcome.output}")
    checked = len(sources.cpp) + len(sources.python) + len(sources.starlark)
    verb = "checked" if _CHECK.value else "formatted"
    tools = sorted({o.tool for o in failed})
    if failed:
        hint = "; run `tools/bazel run //tools:format` to fix what can be fixed" if _CHECK.value else ""
        print(f"format: {checked} files {verb}: FAILED ({', '.join(tools)}){hint}")
        return 1
    print(
        f"format: {checked} files {verb} (C/C++ {len(sources.cpp)}, Python {len(sources.python)}, "
        f"Starlark {len(sources.starlark)}), mypy clean"
    )
    return 0


if __name__ == "__main__":
    app.run(main)
