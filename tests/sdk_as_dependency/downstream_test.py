"""Builds and tests tests/downstream, a separate Bazel workspace that depends
on the SDK with bazel_dep + local_path_override, using a nested Bazel.

It proves the public API works from another repository: labels resolve to
the SDK's own repository, toolchains and the Python venv registered by the
SDK reach the dependent, and its firmware runs on QEMU.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

from execution_log import runners

# Loads and labels a downstream repository may use: the public entry point,
# the documented board library, and the rules it needs anyway.
PUBLIC_LOADS = {"@ethosu_sdk//:defs.bzl", "@rules_cc//cc:defs.bzl", "@rules_python//python:defs.bzl"}
PUBLIC_LABELS = {"@ethosu_sdk//cc/platform:board"}


def sdk_root() -> pathlib.Path:
    # Runfiles are symlinks into the source tree: follow one back to it.
    return pathlib.Path(os.path.realpath("MODULE.bazel")).parent


def downstream_files() -> list[pathlib.Path]:
    source = sdk_root() / "tests" / "downstream"
    return [p for p in sorted(source.rglob("*")) if p.is_file()]


def test_downstream_uses_only_the_public_api() -> None:
    loads: set[str] = set()
    labels: set[str] = set()
    for path in downstream_files():
        if path.name in ("BUILD.bazel", "BUILD") or path.suffix == ".bzl":
            text = path.read_text()
            loads |= set(re.findall(r'load\(\s*"([^"]+)"', text))
            labels |= set(re.findall(r'"(@ethosu_sdk//[^"]+)"', text))
    assert loads, "no load() found: the check would be vacuous"
    assert loads <= PUBLIC_LOADS, f"private loads: {sorted(loads - PUBLIC_LOADS)}"
    assert labels - PUBLIC_LOADS <= PUBLIC_LABELS, f"private labels: {sorted(labels - PUBLIC_LOADS - PUBLIC_LABELS)}"


def test_downstream_builds_and_its_firmware_test_passes(tmp_path: pathlib.Path) -> None:
    root = sdk_root()
    workspace = tmp_path / "downstream"
    shutil.copytree(root / "tests" / "downstream", workspace)
    module = workspace / "MODULE.bazel"
    module.write_text(module.read_text().replace('path = "../.."', f'path = "{root}"'))

    startup = [f"--output_user_root={tmp_path / 'bazel'}"]
    machine_rc = os.environ.get("ETHOSU_SDK_MACHINE_RC")
    if machine_rc:
        startup.append(f"--bazelrc={machine_rc}")  # venv, shared disk cache
    if os.environ.get("ETHOSU_SDK_OFFLINE"):
        # The SDK's offline stand-ins, by absolute path (their rc file names
        # them relative to the SDK's own workspace).
        rc = tmp_path / "offline.bazelrc"
        offline = (root / "third_party" / "offline" / "offline.bazelrc").read_text()
        rc.write_text(offline.replace("%workspace%", str(root)))
        startup.append(f"--bazelrc={rc}")
    env = {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    # The SDK's QEMU (with the Ethos-U device), as tools/bazel passes it.
    qemu = [f"--repo_env=ETHOSU_SDK_QEMU_BIN={os.path.realpath(os.environ['ETHOSU_SDK_QEMU_RUNFILE'])}"]

    def bazel(*args: str) -> subprocess.CompletedProcess[str]:
        command = args[:1] + tuple(qemu) + args[1:] if args[0] != "shutdown" else args
        return subprocess.run(
            ["bazel", *startup, *command], cwd=workspace, env=env, capture_output=True, text=True, timeout=1500
        )

    spawn_log = tmp_path / "spawns.json"
    try:
        # The model is compiled, not taken from the shared cache, so that the
        # log shows where: in the SDK's persistent worker, which a downstream
        # repository gets without any flag of its own.
        result = bazel(
            "test", f"--execution_log_json_file={spawn_log}", "--modify_execution_info=EthosuModel=+no-cache", "//..."
        )
        log = result.stdout + result.stderr
        assert result.returncode == 0, log[-6000:]
        assert runners(spawn_log, "EthosuModel") == ["worker"], runners(spawn_log, "EthosuModel")
        assert re.search(r"//app:app_test\s+(\(cached\) )?PASSED", log), log[-3000:]
        # Its own PyTorch model, lowered, built into firmware and run on QEMU.
        assert re.search(r"//model:tiny_cnn_test\s+(\(cached\) )?PASSED", log), log[-3000:]
    finally:
        bazel("shutdown")
