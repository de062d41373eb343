"""Runs a firmware image on a simulated board and checks how it ended.

Streams the board's console to stdout, enforces a timeout, and exits with the
firmware's own exit status, or non-zero when an expectation fails. The
firmware's status comes from the simulator's exit status (QEMU) or from the
`ESDK exit <status>` line every firmware prints last (FVPs end with 0
whatever the firmware returned).
"""

from __future__ import annotations

import re
import sys

from absl import app, flags

from ethosu_sdk.runner import boards
from ethosu_sdk.runner.simulate import NOT_INSTALLED_STATUS, firmware_status, run

FLAGS = flags.FLAGS
flags.DEFINE_string("elf", None, "Firmware ELF to run.", required=True)
flags.DEFINE_enum("board", "qemu_an547", sorted(boards.BOARDS), "Board to simulate.")
flags.DEFINE_integer("npu_macs", None, "MAC configuration of an FVP's Ethos-U (default: the board's).")
flags.DEFINE_float("timeout", 300.0, "Seconds before the run is stopped and counted as failed.")
flags.DEFINE_integer("expect_exit", None, "Fail unless the firmware exits with this status.")
flags.DEFINE_multi_string("expect_output", [], "Regex that must match the console output (repeatable).")


def main(argv: list[str]) -> int:
    del argv
    board = boards.get(FLAGS.board)
    options = boards.RunOptions(elf=FLAGS.elf, npu_macs=FLAGS.npu_macs, timeout=FLAGS.timeout)
    try:
        command = board.command(options)
    except boards.SimulatorNotFound as missing:
        print(f"error: {missing}", file=sys.stderr)
        return NOT_INSTALLED_STATUS
    simulator_status, output = run(command, FLAGS.timeout)
    status = firmware_status(board, simulator_status, output)
    failed = False
    if FLAGS.expect_exit is not None and status != FLAGS.expect_exit:
        print(f"error: firmware exited with {status}, expected {FLAGS.expect_exit}", file=sys.stderr)
        failed = True
    for pattern in FLAGS.expect_output:
        if not re.search(pattern, output, re.MULTILINE):
            print(f"error: console output does not match {pattern!r}", file=sys.stderr)
            failed = True
    if failed:
        return 1
    return 0 if FLAGS.expect_exit is not None else status


if __name__ == "__main__":
    app.run(main)
