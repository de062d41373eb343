"""The worker loop around a small CLI (echo_tool.py): every way of writing
output lands in the response, never on the protocol stream; failures are
statuses; each request starts from the worker's own state."""

from __future__ import annotations

import os
import subprocess

from worker_client import WorkerClient

TOOL = "tests/worker/echo_tool"


def test_requests_in_a_row() -> None:
    worker = WorkerClient(TOOL, os.environ)
    cwd = os.getcwd()
    code, output = worker.request(["--say=one"])
    assert code == 0
    lines = sorted(output.splitlines())  # stdout is block-buffered, stderr not: any order
    assert [line.split(" ")[0] for line in lines] == ["child:one", "fd1:one", "print:one", "stderr:one"]
    assert f"cwd={cwd} env=None tmp=" in lines[2] and "ethosu-worker-" in lines[2]  # its own TMPDIR
    code, output = worker.request(["--say=two", "--exit=3"])
    assert code == 3 and f"print:two cwd={cwd} env=None" in output  # request one's chdir and env are gone
    code, output = worker.request(["--say=three", "--raise_error"])
    assert code == 1 and "RuntimeError: failed on three" in output and "Traceback" in output
    code, output = worker.request(["--no_such_flag"])
    assert code == 1 and output.startswith("FATAL Flags parsing error:") and "no_such_flag" in output
    code, output = worker.request(["--say=four"])
    assert code == 0 and "print:four" in output and "stderr:three" not in output  # flags are fresh
    assert worker.close() == 0


def test_one_shot_is_a_plain_cli() -> None:
    result = subprocess.run([TOOL, "--say=x", "--exit=2"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "print:x" in result.stdout and "fd1:x" in result.stdout and "child:x" in result.stdout
    assert "stderr:x" in result.stderr and "print:x" not in result.stderr
