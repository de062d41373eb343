"""Drives a persistent worker as Bazel does: JSON WorkRequests on its stdin,
one WorkResponse a line on its stdout (anything else there is an error)."""

from __future__ import annotations

import json
import subprocess
from typing import Mapping, Sequence


class WorkerClient:
    def __init__(self, binary: str, env: Mapping[str, str]) -> None:
        self._process = subprocess.Popen(
            [binary, "--persistent_worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=dict(env)
        )
        self._next_id = 1

    def request(self, arguments: Sequence[str]) -> tuple[int, str]:
        """Sends one request; returns the response's (exit code, output)."""
        assert self._process.stdin and self._process.stdout
        request_id = self._next_id
        self._next_id += 1
        message = {"arguments": list(arguments), "inputs": [], "requestId": request_id}
        self._process.stdin.write((json.dumps(message) + "\n").encode())
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        assert line, f"the worker ended (status {self._process.wait()})"
        response = json.loads(line)  # a stray write on stdout would fail here
        assert set(response) <= {"exitCode", "output", "requestId"}, response
        assert response.get("requestId", 0) == request_id, response
        return int(response.get("exitCode", 0)), str(response.get("output", ""))

    def close(self) -> int:
        """Closes stdin (Bazel's way of stopping a worker); returns its status."""
        assert self._process.stdin
        self._process.stdin.close()
        return self._process.wait(timeout=120)
