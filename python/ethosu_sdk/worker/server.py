"""A CLI that is also a Bazel persistent worker.

    if __name__ == "__main__":
        server.run(main)

Without `--persistent_worker` this is `absl.app.run(main)`: the one-shot CLI,
unchanged. With it (Bazel starts workers so), the process reads WorkRequests
on stdin and answers each with a WorkResponse on stdout, running `main` on
the request's arguments in a clean state (isolation.py). Everything the
request writes to fds 1 and 2 becomes the response's output: the real stdout
carries only the protocol, and nothing a request does can write into it.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import BinaryIO, Sequence

from absl import app
from absl import logging as absl_logging

from ethosu_sdk.cli.held_back import redirected
from ethosu_sdk.worker import protocol
from ethosu_sdk.worker.absl_main import Main, run_main
from ethosu_sdk.worker.isolation import Baseline, clean_request

PERSISTENT_WORKER_FLAG = "--persistent_worker"


def run(main: Main) -> None:
    if PERSISTENT_WORKER_FLAG in sys.argv[1:]:
        startup_args = [a for a in sys.argv[1:] if a != PERSISTENT_WORKER_FLAG]
        sys.exit(serve(main, sys.argv[0], startup_args))
    app.run(main)


def handle(main: Main, argv: Sequence[str], baseline: Baseline) -> protocol.WorkResponse:
    """Runs one request; its output is whatever it wrote to fds 1 and 2."""
    with tempfile.TemporaryDirectory(prefix="ethosu-worker-") as work:
        temp_dir = os.path.join(work, "tmp")
        os.mkdir(temp_dir)
        log_path = os.path.join(work, "output.log")
        with open(log_path, "wb") as log, redirected(log.fileno()):
            with clean_request(baseline, temp_dir):
                code = run_main(main, argv)
        with open(log_path, "rb") as written:
            output = written.read().decode("utf-8", errors="replace")
    return protocol.WorkResponse(exit_code=code, output=output)


def _take_protocol_streams() -> tuple[BinaryIO, BinaryIO]:
    """Private copies of stdin and stdout for the protocol; fd 0 then reads
    /dev/null and fd 1 goes to stderr (the worker's log), so that stray
    writes between requests cannot corrupt the protocol."""
    requests = os.fdopen(os.dup(0), "rb")
    responses = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdout.flush()
    os.dup2(2, 1)
    return requests, responses


def serve(main: Main, program: str, startup_args: Sequence[str]) -> int:
    requests, responses = _take_protocol_streams()
    absl_logging.use_absl_handler()  # as app.run sets up logging
    baseline = Baseline.capture()
    for request in protocol.read_requests(requests):
        if request.cancel:
            continue  # cancellation is not offered (no supports-worker-cancellation)
        started = time.monotonic()
        response = handle(main, [program, *startup_args, *request.arguments], baseline)
        if request.verbosity > 0:  # --worker_verbose: a line in the worker's log
            print(
                f"{os.path.basename(program)} worker {os.getpid()}: request {request.request_id} "
                f"exit {response.exit_code} in {time.monotonic() - started:.1f} s",
                file=sys.stderr,
                flush=True,
            )
        protocol.write_response(
            responses,
            protocol.WorkResponse(exit_code=response.exit_code, output=response.output, request_id=request.request_id),
        )
    return 0
