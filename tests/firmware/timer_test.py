"""The QEMU board's timer counts executed instructions: loops of a known
instruction count (2 per iteration, by the Thumb ISA) converted through the
board's reported rate give back that count, run after run. On the default
board (mps3-an547, FPGAIO counter at 20 MHz) and on the mps2-an386, whose
counter runs at 25 MHz (the plain mps2 boards' SYSCLK)."""

import re
import subprocess

import pytest

RUNNER = "python/ethosu_sdk/runner/run_firmware"
FIRMWARES = {
    "qemu_an547": ("tests/firmware/timer_calibration.elf", 20_000_000),
    "qemu_an386": ("tests/firmware/timer_calibration_qemu_an386.elf", 25_000_000),
}
LINE = re.compile(r"^instructions=(\d+) ticks=(\d+) ticks_per_second=(\d+)$", re.MULTILINE)


def measure(board: str) -> list[tuple[int, int, int]]:
    result = subprocess.run(
        [RUNNER, f"--elf={FIRMWARES[board][0]}", f"--board={board}", "--expect_exit=0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [(int(a), int(b), int(c)) for a, b, c in LINE.findall(result.stdout)]
    assert len(rows) == 3, result.stdout
    return rows


@pytest.mark.parametrize("board", sorted(FIRMWARES))
def test_timer_converts_to_instruction_counts(board: str) -> None:
    for instructions, ticks, rate in measure(board):
        assert rate == FIRMWARES[board][1]
        # -icount shift=0: 1 ns of board time per instruction.
        measured = ticks * 1_000_000_000 // rate
        # One tick of granularity plus the few instructions around the loop.
        assert abs(measured - instructions) <= 1_000_000_000 // rate + 50, (instructions, measured)


@pytest.mark.parametrize("board", sorted(FIRMWARES))
def test_runs_are_deterministic(board: str) -> None:
    assert measure(board) == measure(board)
