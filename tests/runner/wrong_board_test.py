"""A firmware run on a board it was not linked for ends in one clear error
before the simulation (QEMU would otherwise lock up reading a vector table
that is not there, or fault on memory the board lacks): the runner compares
the image's sections with the board's memory (its descriptor's) and names
the boards the image fits."""

from __future__ import annotations

import subprocess

import pytest

RUNNER = "python/ethosu_sdk/runner/run_firmware"
HELLO = "examples/hello/firmware_{board}.elf"


def run(elf: str, board: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([RUNNER, f"--elf={elf}", f"--board={board}"], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    "built_for, run_on",
    [
        # The same Armv7E-M CPU family, another PSRAM address.
        ("qemu_an386", "qemu_an500"),
        ("qemu_an500", "qemu_an386"),
        # Booting from 0x10000000 (secure SSRAM1) against booting from 0.
        ("qemu_an505", "qemu_an386"),
        ("qemu_an386", "qemu_an505"),
    ],
)
def test_an_image_for_another_board_is_refused_in_one_line(built_for: str, run_on: str) -> None:
    elf = HELLO.format(board=built_for)
    result = run(elf, run_on)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: --elf={elf} was linked for another board: its "), lines[0]
    assert f"lies outside board {run_on}'s memory: rebuild it for this board" in lines[0], lines[0]
    assert lines[0].endswith(f"or run it with --board={built_for}"), lines[0]
    assert "Hello" not in result.stdout


@pytest.mark.parametrize("board", ["qemu_an386", "qemu_an500"])
def test_an_image_runs_on_its_own_board(board: str) -> None:
    result = run(HELLO.format(board=board), board)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Hello from {board}" in result.stdout
