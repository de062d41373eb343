"""`--config=remote_cache` against a real HTTP cache: nginx's WebDAV module on
loopback, started by the test.

Two copies of the source tree at different paths stand for two clones. The
first builds REMOTE_CACHE_TARGETS (a model lowered in its persistent worker
and C++ compiled) with no disk cache, so every action runs and is uploaded;
the second, also without a disk cache, must get every action from the
remote cache: nothing is lowered or compiled again. That the second clone
lives at another path proves the action keys carry no checkout path.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import socket
import subprocess
import time
from typing import Iterator

import pytest
from execution_log import by_runner

# What each clone builds (tests/remote_cache/BUILD.bazel): everyday a small
# CPU model and a C++ library, in the full tier a model and its firmware
# (//examples:digits_u55).
TARGETS = os.environ["REMOTE_CACHE_TARGETS"].split()
# Copies of the checkout leave out what is not source: git metadata, Bazel's
# convenience symlinks and reports, and a user's own settings.
NOT_SOURCE = shutil.ignore_patterns(".git", "bazel-*", "user.bazelrc", "__pycache__")


def sdk_root() -> pathlib.Path:
    # Runfiles are symlinks into the source tree: follow one back to it.
    return pathlib.Path(os.path.realpath("MODULE.bazel")).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


NGINX_CONF = """\
daemon off;
# One process: no worker processes to switch to another user.
master_process off;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body;
  proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi;
  scgi_temp_path {dir}/scgi;
  server {{
    listen 127.0.0.1:{port};
    root {dir}/cache;
    # Bazel's HTTP cache protocol: GET and PUT of /ac/<hash> and /cas/<hash>.
    client_max_body_size 0;
    location / {{
      dav_methods PUT;
      create_full_put_path on;
    }}
  }}
}}
"""


@pytest.fixture
def cache_url(tmp_path: pathlib.Path) -> Iterator[str]:
    # The build root installs nginx in /usr/sbin, not on the test's PATH.
    nginx = shutil.which("nginx", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")
    if nginx is None:
        pytest.fail(
            "nginx not found: the remote cache test serves its cache with nginx's WebDAV module; "
            "run it through tools/bazel (the build root installs nginx) or apt-get install nginx"
        )
    directory = tmp_path / "nginx"
    (directory / "cache").mkdir(parents=True)
    port = free_port()
    conf = directory / "nginx.conf"
    conf.write_text(NGINX_CONF.format(dir=directory, port=port))
    server = subprocess.Popen([nginx, "-e", str(directory / "error.log"), "-p", str(directory), "-c", str(conf)])
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, (directory / "error.log").read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not listen within 30 s"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def build(clone: pathlib.Path, cache_url: str, spawn_log: pathlib.Path) -> None:
    """Builds TARGETS in `clone` with its own Bazel server and output base, as
    tools/bazel would (its machine rc: venv, repository cache; the offline
    stand-ins; the SDK's QEMU), with no disk cache and the remote cache."""
    home = clone.parent / f"{clone.name}-home"
    home.mkdir()
    startup = [f"--output_user_root={home / 'bazel'}"]
    if os.environ.get("ETHOSU_SDK_MACHINE_RC"):
        startup.append(f"--bazelrc={os.environ['ETHOSU_SDK_MACHINE_RC']}")
    if os.environ.get("ETHOSU_SDK_OFFLINE"):
        startup.append(f"--bazelrc={clone / 'third_party' / 'offline' / 'offline.bazelrc'}")
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    qemu = f"--repo_env=ETHOSU_SDK_QEMU_BIN={os.path.realpath(os.environ['ETHOSU_SDK_QEMU_RUNFILE'])}"
    command = [
        "bazel",
        *startup,
        "build",
        qemu,
        "--config=remote_cache",
        f"--remote_cache={cache_url}",
        "--disk_cache=",
        "--symlink_prefix=/",
        f"--execution_log_json_file={spawn_log}",
        *TARGETS,
    ]
    try:
        result = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True, timeout=2400)
        assert result.returncode == 0, (result.stdout + result.stderr)[-6000:]
    finally:
        subprocess.run(["bazel", *startup, "shutdown"], cwd=clone, env=env, capture_output=True)


def test_a_second_clone_gets_every_action_from_the_remote_cache(tmp_path: pathlib.Path, cache_url: str) -> None:
    logs = {}
    for name in ("first", "second"):
        clone = tmp_path / name / "ethosu_sdk"
        shutil.copytree(sdk_root(), clone, ignore=NOT_SOURCE, symlinks=True)
        logs[name] = tmp_path / f"{name}.spawns.json"
        build(clone, cache_url, logs[name])

    first, second = by_runner(logs["first"]), by_runner(logs["second"])
    # The first clone lowered the model itself, in its worker, and uploaded it.
    assert first["EthosuModel: worker"] == 1, first
    # The second ran nothing: every spawn, lowering and C++ alike, is a hit.
    assert second["EthosuModel: remote cache hit"] == 1, second
    assert second["CppCompile: remote cache hit"] > 0, second
    not_hits = {key: count for key, count in second.items() if not key.endswith(": remote cache hit")}
    assert not not_hits, f"spawns of the second clone not served by the remote cache: {not_hits}"
    assert sum(second.values()) == sum(first.values()), (first, second)
