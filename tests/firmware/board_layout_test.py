"""Every board's firmware is linked where its descriptor
(platforms/boards/<board>.bzl) says: the linker (GNU ld, reading the MEMORY
block generated from the descriptor and cc/platform/cortex_m/sections.ld)
placed each section inside the descriptor's region for its role, the vector
table at the boot region's origin and the heap's end at the end of the heap
region, as the cross toolchain's readelf reports the image."""

import re
import subprocess
from typing import Any

import pytest

from ethosu_sdk import board_table
from ethosu_sdk.firmware.board_memory import BOARD_MEMORY

READELF = "arm-none-eabi-readelf"

# The same program (examples/hello) built for each board.
IMAGES = {
    "qemu_an547": "examples/hello/firmware.elf",
    "qemu_an505": "examples/hello/firmware_qemu_an505.elf",
    "qemu_an386": "examples/hello/firmware_qemu_an386.elf",
    "qemu_an500": "examples/hello/firmware_qemu_an500.elf",
    "corstone300": "examples/hello/firmware_corstone300.elf",
    "corstone320": "examples/hello/firmware_corstone320.elf",
}

# The region role (sections.ld's REGION_ALIAS) each section is placed in.
SECTION_ROLES = {
    ".vectors": "VECTORS",
    ".text": "CODE",
    ".ARM.exidx": "CODE",
    ".data": "DATA",
    ".bss": "DATA",
    ".stack": "DATA",
    ".ddr_rodata": "BULK",
    ".ddr_bss": "BULK",
    ".sram_bss": "NPU_SRAM",
    ".heap": "HEAP",
}

_SECTION = re.compile(r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]{8})\s+[0-9a-f]+\s+([0-9a-f]+)\s", re.MULTILINE)
_SYMBOL = re.compile(r"^\s*\d+:\s+([0-9a-f]{8})\s+\d+\s+\w+\s+\w+\s+\w+\s+\S+\s+(\S+)$", re.MULTILINE)


def readelf(*args: str) -> str:
    return subprocess.run([READELF, *args], check=True, capture_output=True, text=True).stdout


def region(board: dict[str, Any], role: str) -> tuple[int, int]:
    """(start, end) of the region `board` gives `role`."""
    name = board["roles"][role]
    for memory in board["memory"]:
        if memory["name"] == name:
            return memory["origin"], memory["origin"] + memory["length"]
    raise AssertionError(f"board {board['name']}: role {role} names {name}, not one of its memory regions")


def test_every_board_has_an_image() -> None:
    assert sorted(IMAGES) == sorted(board_table.BOARDS)


@pytest.mark.parametrize("name", sorted(IMAGES))
def test_sections_lie_in_their_regions(name: str) -> None:
    board = board_table.BOARDS[name]
    sections = {
        s: (int(address, 16), int(size, 16)) for s, address, size in _SECTION.findall(readelf("-S", "-W", IMAGES[name]))
    }
    # The linker drops empty sections without symbols (hello has no model).
    assert {".vectors", ".text", ".stack", ".heap"} <= set(sections), sections
    for section, role in SECTION_ROLES.items():
        if section not in sections:
            continue
        address, size = sections[section]
        start, end = region(board, role)
        assert start <= address and address + size <= end, (section, hex(address), size, role, hex(start), hex(end))
    # The core boots from the start of the vector region.
    assert sections[".vectors"][0] == region(board, "VECTORS")[0]


@pytest.mark.parametrize("name", sorted(IMAGES))
def test_heap_ends_at_its_region_end(name: str) -> None:
    # sections.ld sets __heap_limit__ to ORIGIN(HEAP) + LENGTH(HEAP): the
    # region's length as the linker read it.
    symbols = {symbol: int(value, 16) for value, symbol in _SYMBOL.findall(readelf("-s", "-W", IMAGES[name]))}
    assert symbols["__heap_limit__"] == region(board_table.BOARDS[name], "HEAP")[1] % (1 << 32)


@pytest.mark.parametrize("name", sorted(board_table.BOARDS))
def test_budgets_are_the_regions_the_firmware_uses(name: str) -> None:
    # Vela's SRAM is the region the NPU's fast scratch is linked in; its DRAM
    # includes the bulk region the model and arenas are linked in.
    board = board_table.BOARDS[name]
    if board["npu"] is None:
        assert board["budgets"] is None and name not in BOARD_MEMORY
        return
    assert board["budgets"]["sram"] == [board["roles"]["NPU_SRAM"]]
    assert board["roles"]["BULK"] in board["budgets"]["dram"]
    lengths = {memory["name"]: memory["length"] for memory in board["memory"]}
    assert BOARD_MEMORY[name].sram_bytes == lengths[board["roles"]["NPU_SRAM"]]
