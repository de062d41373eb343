"""The firmware build's board memories (python/ethosu_sdk/firmware/board_memory.py)
are the ones the boards' linker scripts declare, for every board with an NPU
the runner knows, and a model's SRAM need counts what Vela reads at SRAM speed."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from ethosu_sdk.firmware.board_memory import BOARD_MEMORY, KIB, ModelDoesNotFit, check_fits
from ethosu_sdk.runner.boards import BOARDS

# The SRAM the NPU reaches at 0x31000000 on all three boards, and the DDR.
_REGION = re.compile(
    r"^\s*(\w+)\s*\([rwx]+\)\s*:\s*ORIGIN\s*=\s*(0x[0-9A-Fa-f]+),\s*LENGTH\s*=\s*(\d+)([KM])", re.MULTILINE
)


def _regions(board: str) -> dict[int, int]:
    text = pathlib.Path(f"cc/platform/{board}/memory.ld").read_text()
    return {
        int(origin, 16): int(length) * (KIB if unit == "K" else KIB * KIB)
        for _, origin, length, unit in _REGION.findall(text)
    }


def test_every_runner_board_has_memories() -> None:
    # Boards without an NPU (qemu_an505) have no NPU memory budget.
    assert sorted(BOARD_MEMORY) == sorted(name for name, board in BOARDS.items() if board.has_npu)


def test_sizes_are_the_linker_scripts() -> None:
    for board, memory in BOARD_MEMORY.items():
        regions = _regions(board)
        assert regions[0x31000000] == memory.sram_bytes, board
        # DDR at 0x70000000 (the Corstone-320 keeps its last 16 MiB for a heap).
        ddr = regions[0x70000000] + regions.get(0x7F000000, 0)
        assert ddr == memory.dram_bytes, board


def test_sram_only_weights_count_as_sram() -> None:
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
