"""The QEMU board's timer counts executed instructions: loops of a known
instruction count (2 per iteration, by the Thumb ISA) converted through the
board's reported rate give back that count, run after run."""

import re
import subprocess

RUNNER = "python/ethosu_sdk/runner/run_firmware"
FIRMWARE = "tests/firmware/timer_calibration.elf"
LINE = re.compile(r"^instructions=(\d+) ticks=(\d+) ticks_per_second=(\d+)$", re.MULTILINE)


def measure() -> list[tuple[int, int, int]]:
    result = subprocess.run(
        [RUNNER, f"--elf={FIRMWARE}", "--expect_exit=0"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [(int(a), int(b), int(c)) for a, b, c in LINE.findall(result.stdout)]
    assert len(rows) == 3, result.stdout
    return rows


def test_timer_converts_to_instruction_counts() -> None:
    for instructions, ticks, rate in measure():
        # -icount shift=0: 1 ns of board time per instruction.
        measured = ticks * 1_000_000_000 // rate
        # One tick of granularity plus the few instructions around the loop.
        assert abs(measured - instructions) <= 1_000_000_000 // rate + 50, (instructions, measured)


def test_runs_are_deterministic() -> None:
    assert measure() == measure()
