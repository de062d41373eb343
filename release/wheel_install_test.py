"""The release's wheel installs into a new venv with pip and its CLI lowers a
model there, outside Bazel: the installed package, not the runfiles, runs.

The wheel's heavy dependencies (torch, executorch, Vela: ~2 GB) are not
downloaded again: a .pth file lends them from the SDK's own pinned venv. The
wheel itself is installed by pip with --no-deps from the file."""

from __future__ import annotations

import os
import pathlib
import re
import site
import subprocess
import sys


def sdk_version() -> str:
    with open("version.bzl") as f:
        return re.search(r'SDK_VERSION = "([^"]+)"', f.read())[1]


def test_wheel_installs_and_its_cli_lowers_a_model(tmp_path: pathlib.Path) -> None:
    wheel = os.path.abspath(f"release/ethosu_sdk-{sdk_version()}-py3-none-any.whl")
    venv = tmp_path / "venv"
    subprocess.run([os.path.join(sys.base_prefix, "bin", "python3"), "-m", "venv", str(venv)], check=True)
    purelib = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # Dependencies from the SDK's venv; appended after the venv's own paths.
    (pathlib.Path(purelib) / "sdk_dependencies.pth").write_text(site.getsitepackages()[0] + "\n")
    env = {"PATH": f"{venv}/bin:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    install = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--no-deps", "--no-index", "--quiet", wheel],
        capture_output=True,
        text=True,
        env=env,
    )
    assert install.returncode == 0, install.stdout + install.stderr

    where = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import ethosu_sdk, executorch_program; print(ethosu_sdk.__file__); print(executorch_program.__file__)",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
    ).stdout.split()
    assert all(path.startswith(purelib) for path in where), where

    work = tmp_path / "work"
    (work / "out").mkdir(parents=True)
    lower = subprocess.run(
        ["ethosu-aot-compile", "--model=mlp_softmax", "--target=ethos-u85-256", "--output=out/mlp.pte", "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
        timeout=900,
    )
    assert lower.returncode == 0, lower.stdout[-3000:] + lower.stderr[-3000:]
    for suffix in (".pte", ".input.tensors", ".expected.tensors", ".summary.json"):
        assert (work / "out" / f"mlp{suffix}").stat().st_size > 0
    assert (work / "out" / "mlp.pte").read_bytes()[4:8] == b"ET12"
