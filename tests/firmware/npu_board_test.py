"""An Ethos-U85 program on a board built without one (the SSE-300 boards)
builds only when the firmware asked for that board, with one line saying why
that is unusual; defaulted there, the build fails naming the board to pass.
Boards with the U85, and other NPUs, say nothing."""

from __future__ import annotations

import re

import pytest

from ethosu_sdk.firmware.board_memory import WrongBoard, npu_board_note


@pytest.mark.parametrize("board", ["qemu_an547", "corstone300"])
def test_asked_for_sse300_board_prints_one_line(board: str) -> None:
    note = npu_board_note("ethos-u85-256", board, board_given=True)
    assert note is not None and "\n" not in note
    assert re.fullmatch(
        rf"note: an ethos-u85-256 on {board} \(Cortex-M55\) is unusual: no Arm platform puts an Ethos-U85 in this "
        rf'subsystem \(Corstone-320 does\), only the SDK\'s QEMU device runs it; drop board = "{board}" for corstone320',
        note,
    ), note


def test_defaulted_sse300_board_fails_naming_the_board_to_pass() -> None:
    with pytest.raises(WrongBoard, match=r'pass board = "corstone320" to ethosu_firmware$'):
        npu_board_note("ethos-u85-128", "qemu_an547", board_given=False)


@pytest.mark.parametrize(
    "target,board",
    [
        ("ethos-u85-256", "corstone320"),
        ("ethos-u55-128", "qemu_an547"),
        ("ethos-u65-256", "corstone300"),
        ("cortex-m55", "qemu_an547"),
        ("cpu", "qemu_an547"),
    ],
)
def test_other_pairs_say_nothing(target: str, board: str) -> None:
    assert npu_board_note(target, board, board_given=False) is None
    assert npu_board_note(target, board, board_given=True) is None
