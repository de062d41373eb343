"""Runs an absl `main` on one request's arguments, as `app.run` would in a
fresh process, but returning the exit status instead of leaving."""

from __future__ import annotations

import sys
import traceback
from typing import Callable, Optional, Sequence

from absl import app, flags

Main = Callable[[list[str]], Optional[int]]


def exit_status(code: object) -> int:
    """sys.exit's convention: None is 0, an int is itself, anything else 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def run_main(main: Main, argv: Sequence[str]) -> int:
    """Parses `argv` (argv[0] the program) into fresh flag values, calls
    `main` with the rest; every failure is a status and a message on stderr."""
    app.define_help_flags()  # as app.run: --help, --helpshort, --helpfull
    flags.FLAGS.unparse_flags()
    try:
        # absl's own parsing and error message (it leaves with status 1).
        remaining = app.parse_flags_with_usage(list(argv))
    except SystemExit as e:
        return exit_status(e.code)
    try:
        return exit_status(main(remaining))
    except SystemExit as e:
        return exit_status(e.code)
    except app.UsageError as e:  # app.run's message, without leaving
        app.usage(shorthelp=True, detailed_error=e)
        return e.exitcode
    except Exception:  # as an uncaught exception would end the process
        traceback.print_exc()
        return 1
