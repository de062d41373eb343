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
flags.DEFINE_bool(
    "fvp",
    False,
    "Run on Arm's FVP of the board where it has one (corstone300, corstone320) instead of the SDK's QEMU machine.",
)
flags.DEFINE_string(
    "npu",
    None,
    "The board's Ethos-U, e.g. ethos-u85-256 (default: the board's own; Corstone-300's "
    "ethos-u55-128 on qemu_an547). QEMU's device and an FVP's NPU are configured with it.",
)
flags.DEFINE_string("simulator", None, "The simulator binary (default: the board's, looked up on PATH).")
flags.DEFINE_string("npu_library", None, "QEMU: the Ethos-U device core (libethosu_npu_device.so).")
flags.DEFINE_bool(
    "npu_never_complete",
    False,
    "QEMU: fault injection, the NPU accepts jobs and never completes them (driver timeout tests).",
)
flags.DEFINE_float("timeout", 300.0, "Seconds before the run is stopped and counted as failed.")
flags.DEFINE_integer("expect_exit", None, "Fail unless the firmware exits with this status.")
flags.DEFINE_multi_string("expect_output", [], "Regex that must match the console output (repeatable).")


def main(argv: list[str]) -> int:
    del argv
    board = boards.get(FLAGS.board, FLAGS.fvp)
    npu = boards.parse_npu(FLAGS.npu)
    if FLAGS.npu and npu is None:
        print(
            f"error: --npu={FLAGS.npu} is not an Ethos-U configuration (ethos-u55-128, ethos-u85-256, ...)",
            file=sys.stderr,
        )
        return 2
    options = boards.RunOptions(
        elf=FLAGS.elf,
        npu=npu,
        timeout=FLAGS.timeout,
        simulator=FLAGS.simulator,
        npu_library=FLAGS.npu_library,
        never_complete=FLAGS.npu_never_complete,
    )
    try:
        command = board.command(options)
    except boards.NotAFirmware as bad:
        print(f"error: {bad}", file=sys.stderr)
        return 2
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
