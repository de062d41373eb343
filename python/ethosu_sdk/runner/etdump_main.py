"""etdump: a run's console text (the line protocol) to an ETDump file that
ExecuTorch's Inspector reads, and the run's time per operator, the slowest
first.

    run_firmware --elf=model.elf | etdump --out=model.etdp
"""

from __future__ import annotations

import sys

from absl import app, flags

from ethosu_sdk.runner.etdump import parse, table, write
from ethosu_sdk.runner.protocol import ProtocolError

FLAGS = flags.FLAGS
flags.DEFINE_string("console", "-", "A run's console text (the line protocol); - reads stdin.")
flags.DEFINE_string("out", None, "The ETDump file to write.", required=True)
flags.DEFINE_string("method", "forward", "The method the run executed.")


def main(argv: list[str]) -> int:
    del argv
    if FLAGS.console == "-":
        console = sys.stdin.read()
    else:
        with open(FLAGS.console, encoding="utf-8", errors="replace") as f:
            console = f.read()
    try:
        profile = parse(console)
    except ProtocolError as bad:
        print(
            f"etdump: error: the console text is not a well-formed run ({bad}): give a run's whole output",
            file=sys.stderr,
        )
        return 2
    if profile is None:
        print(
            "etdump: error: no ESDK PROFILE and TIME records in the console text: give a run's whole output",
            file=sys.stderr,
        )
        return 2
    with open(FLAGS.out, "wb") as f:
        f.write(write(profile, FLAGS.method))
    print(table(profile))
    return 0


if __name__ == "__main__":
    app.run(main)
