"""The release is reproducible: a clean build in a fresh output base, at
another path and time, with no cache to share, gives a tarball bit-identical
(by sha256) to the one this build made, with the clean build's CPU
dispatch capped to stand in for another host's. (One clean build against the outer
one, not two clean builds: each lowers MobileNetV2 and compiles the runtime
for two CPUs, minutes of the cold test.)"""

from __future__ import annotations

import hashlib
import os
import pathlib
import re
import subprocess

from ethosu_sdk import host_numerics


def sdk_root() -> pathlib.Path:
    # Runfiles are symlinks into the source tree: follow one back to it.
    return pathlib.Path(os.path.realpath("MODULE.bazel")).parent


def build_release(root: pathlib.Path, output_root: pathlib.Path, home: pathlib.Path) -> str:
    startup = [f"--output_user_root={output_root}"]
    if os.environ.get("ETHOSU_SDK_MACHINE_RC"):
        startup.append(f"--bazelrc={os.environ['ETHOSU_SDK_MACHINE_RC']}")  # the venv
    if os.environ.get("ETHOSU_SDK_OFFLINE"):
        rc = home / "offline.bazelrc"
        rc.write_text((root / "third_party/offline/offline.bazelrc").read_text().replace("%workspace%", str(root)))
        startup.append(f"--bazelrc={rc}")
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    # The SDK's QEMU (with the Ethos-U device), as tools/bazel passes it.
    qemu = f"--repo_env=ETHOSU_SDK_QEMU_BIN={os.path.realpath(os.environ['ETHOSU_SDK_QEMU_RUNFILE'])}"
    # Another host's CPU, stood in for by capping this one's dispatch: the
    # AOT numerics are pinned (host_numerics.py), so the bytes must not move.
    other_host = [f"--action_env={k}={v}" for k, v in host_numerics.OTHER_HOST_STAND_IN.items()]
    command = ["bazel", *startup, "build", "//release", "--disk_cache=", "--symlink_prefix=/", "--show_result=0", qemu]
    command += other_host
    try:
        result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=3000)
        assert result.returncode == 0, (result.stdout + result.stderr)[-6000:]
        info = subprocess.run(
            ["bazel", *startup, "info", "--disk_cache=", qemu, "bazel-bin"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
        )
        assert info.returncode == 0, info.stderr[-3000:]
        return hashlib.sha256(release_tarball(pathlib.Path(info.stdout.strip())).read_bytes()).hexdigest()
    finally:
        subprocess.run(["bazel", *startup, "shutdown"], cwd=root, env=env, capture_output=True)


def release_tarball(bazel_bin: pathlib.Path) -> pathlib.Path:
    version = re.search(r'SDK_VERSION = "([^"]+)"', pathlib.Path("version.bzl").read_text())[1]
    return bazel_bin / "release" / f"ethosu_sdk-{version}.tar.gz"


def test_a_clean_build_equals_this_build(tmp_path: pathlib.Path) -> None:
    this_build = hashlib.sha256(release_tarball(pathlib.Path(".")).read_bytes()).hexdigest()
    home = tmp_path / "clean"
    home.mkdir()
    clean = build_release(sdk_root(), home / "bazel", home)
    assert re.fullmatch(r"[0-9a-f]{64}", clean)
    assert clean == this_build, "the release tarball differs between two builds (one with capped CPU dispatch)"
