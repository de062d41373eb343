"""Runs a firmware image on a board's simulator: live console, timeout, and
the firmware's exit status (from the simulator, or from the `ESDK exit`
record where the simulator does not pass it on)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from typing import Callable

from ethosu_sdk.runner import boards

TIMEOUT_STATUS = 124
NOT_INSTALLED_STATUS = 127
SIGNAL_STATUS_BASE = 128  # a shell's convention: 128 + the signal's number
EXIT_RECORD = re.compile(r"^ESDK exit (-?\d+)$", re.MULTILINE)


def run(command: list[str], timeout: float, echo: Callable[[str], object] | None = sys.stdout.write) -> tuple[int, str]:
    """Runs the simulator, passing each console line to `echo` as it comes;
    returns (status, output)."""
    lines: list[str] = []
    timed_out = threading.Event()
    with subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    ) as proc:

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
        print(
            f"error: the board did not finish within {timeout:.0f} s: give it more time (--timeout, or "
            "timeout_seconds of the Bazel rule) or look at the console output above for where it stopped",
            file=sys.stderr,
        )
        return TIMEOUT_STATUS, "".join(lines)
    if status < 0:  # killed by a signal: the simulator crashed, the firmware did not finish
        print(
            f"error: the simulator {os.path.basename(command[0])} was killed by {_signal_name(-status)}; "
            "the console output above shows how far the firmware got",
            file=sys.stderr,
        )
        return SIGNAL_STATUS_BASE - status, "".join(lines)
    return status, "".join(lines)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def firmware_status(board: boards.Board, simulator_status: int, output: str) -> int:
    """The firmware's exit status, from the simulator or the exit record."""
    records = EXIT_RECORD.findall(output)
    if board.propagates_exit_status or simulator_status == TIMEOUT_STATUS:
        return simulator_status
    if not records:
        print("error: the firmware ended without an 'ESDK exit' record", file=sys.stderr)
        return 1
    return int(records[-1])
