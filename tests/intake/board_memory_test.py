"""The firmware build's board memories (python/ethosu_sdk/firmware/board_memory.py,
from the boards' descriptors) exist for every board with an NPU the runner
knows, and a model's SRAM need counts what Vela reads at SRAM speed. That the
budgets are the regions the firmware is linked in:
//tests/firmware:board_layout_test."""

from __future__ import annotations

import json
import pathlib

import pytest

from ethosu_sdk.firmware.board_memory import BOARD_MEMORY, KIB, ModelDoesNotFit, check_fits
from ethosu_sdk.runner.boards import BOARDS


def test_every_runner_board_has_memories() -> None:
    # Boards without an NPU (qemu_an505) have no NPU memory budget.
    assert sorted(BOARD_MEMORY) == sorted(name for name, board in BOARDS.items() if board.has_npu)


def test_mobilenet_v2_sram_only_weights_count_as_sram() -> None:
    """MobileNetV2 in Sram_Only (the SDK's U85 default) reads its 3.6 MiB of
    weights at SRAM speed: with its 1.4 MiB of tensors that is more than the
    4 MiB an mps3-an547 has, as Vela's own figures say."""
    summary = json.loads(pathlib.Path("tests/aot/mobilenet_v2_u85_256.summary.json").read_text())
    figures = summary["vela_total"]
    assert summary["memory_mode"] == "Sram_Only"
    assert figures["sram_used_kib"] * KIB < BOARD_MEMORY["qemu_an547"].sram_bytes
    with pytest.raises(
        ModelDoesNotFit,
        match=r"needs 5,\d{3} KiB of SRAM \(Vela, memory mode Sram_Only: "
        r"1,\d{3} KiB of tensors, 3,\d{3} KiB of weights\) but board qemu_an547",
    ):
        check_fits(summary, "qemu_an547")
