"""Runs a firmware image on a board's simulator: live console, timeout, and
the firmware's exit status (from the simulator, or from the `ESDK exit`
record where the simulator does not pass it on)."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from typing import Callable

from ethosu_sdk.runner import boards

TIMEOUT_STATUS = 124
NOT_INSTALLED_STATUS = 127
EXIT_RECORD = re.compile(r"^ESDK exit (-?\d+)$", re.MULTILINE)


def run(command: list[str], timeout: float,
        echo: Callable[[str], None] | None = sys.stdout.write) -> tuple[int, str]:
    """Runs the simulator, passing each console line to `echo` as it comes;
    returns (status, output)."""
    lines: list[str] = []
    timed_out = threading.Event()
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace") as proc:
        def stop() -> None:
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, stop)
        timer.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line)
                if echo is not None:
                    echo(line)
                    sys.stdout.flush()
            status = proc.wait()
        finally:
            timer.cancel()
            if proc.poll() is None:
                proc.kill()
    if timed_out.is_set():
        print(f"error: the board did not finish within {timeout:.0f} s", file=sys.stderr)
        return TIMEOUT_STATUS, "".join(lines)
    return status, "".join(lines)


def firmware_status(board: boards.Board, simulator_status: int, output: str) -> int:
    """The firmware's exit status, from the simulator or the exit record."""
    records = EXIT_RECORD.findall(output)
    if board.propagates_exit_status or simulator_status == TIMEOUT_STATUS:
        return simulator_status
    if not records:
        print("error: the firmware ended without an 'ESDK exit' record", file=sys.stderr)
        return 1
    return int(records[-1])


