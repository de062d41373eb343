"""Redirecting fds 1 and 2 (Python and native writers alike) for a block.

`redirected(fd)` is the primitive; `held_back_output()` keeps a block's
output in a temporary file and can replay it to the real stderr (the
`--quiet` mode of the build-time CLIs: silent on success, the log on failure).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from typing import Callable, Iterator


@contextlib.contextmanager
def redirected(target_fd: int) -> Iterator[tuple[int, int]]:
    """Within the block, fds 1 and 2 write to `target_fd`; yields duplicates
    of the original fds 1 and 2 (valid only inside the block)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    os.dup2(target_fd, 1)
    os.dup2(target_fd, 2)
    try:
        yield saved
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


@contextlib.contextmanager
def held_back_output() -> Iterator[Callable[[], None]]:
    """Sends fds 1 and 2 to a temporary file; yields a function that replays
    it to the real stderr (called on failure)."""
    with tempfile.TemporaryFile() as log, redirected(log.fileno()) as saved:

        def replay() -> None:
            sys.stdout.flush()
            sys.stderr.flush()
            log.seek(0)
            os.write(saved[1], log.read())

        yield replay
