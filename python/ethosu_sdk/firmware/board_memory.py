"""The memories each board gives a model, its descriptor's budgets
(platforms/boards/<board>.bzl: the regions the linker script also declares),
and the check that a compiled model fits.

Vela places a model's tensors in the memories its memory mode names: "SRAM"
(the NPU's fast memory: all feature maps in Sram_Only and Shared_Sram, the
arena cache in Dedicated_Sram), DRAM, and flash for read-only data. A model
whose Vela figures exceed the board's memories compiles, but cannot run as
Vela scheduled it; the firmware build stops here instead, naming the sizes.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from ethosu_sdk import board_table
from ethosu_sdk.errors import SdkError

KIB = 1024


@dataclasses.dataclass(frozen=True)
class BoardMemory:
    name: str
    sram_bytes: int  # SRAM the NPU can reach (Vela's "SRAM")
    dram_bytes: int  # external memory (Vela's DRAM and off-chip flash live here on these boards)


def _budget(descriptor: dict[str, Any], kind: str) -> int:
    """The bytes of the descriptor's regions budgeted as `kind` (sram, dram)."""
    lengths = {region["name"]: region["length"] for region in descriptor["memory"]}
    return sum(lengths[name] for name in descriptor["budgets"][kind])


# Boards with an NPU have budgets; the others (qemu_an505) run CPU programs only.
BOARD_MEMORY = {
    name: BoardMemory(name, _budget(descriptor, "sram"), _budget(descriptor, "dram"))
    for name, descriptor in board_table.BOARDS.items()
    if descriptor["budgets"]
}
BOARDS_WITHOUT_NPU = tuple(name for name, descriptor in board_table.BOARDS.items() if descriptor["npu"] is None)


class ModelDoesNotFit(SdkError, ValueError):
    """The model's memory needs exceed the board's."""


def _kib(value: float) -> str:
    return f"{value:,.0f} KiB"


def sram_need_kib(figures: dict) -> tuple[float, float]:
    """(tensors, weights): the SRAM in KiB a schedule with Vela's summary
    `figures` needs. What Vela calls on-chip flash is read-only data read at
    SRAM speed (Sram_Only's weights): on these boards only SRAM gives that
    speed. The tuner (python/ethosu_sdk/aot/search/tuner.py) budgets the same sum."""
    return float(figures.get("sram_used_kib", 0)), float(figures.get("on_chip_flash_used_kib", 0))


def check_fits(summary: dict, board: str) -> None:
    """Raises ModelDoesNotFit when Vela's figures in an aot_compile summary
    exceed `board`'s memories."""
    memory = BOARD_MEMORY[board]
    figures = summary.get("vela_total") or {}
    mode = summary.get("memory_mode")
    arena_kib, constants_kib = sram_need_kib(figures)
    arena, constants = arena_kib * KIB, constants_kib * KIB
    sram = arena + constants
    if sram > memory.sram_bytes:
        split = f": {_kib(arena / KIB)} of tensors, {_kib(constants / KIB)} of weights" if constants else ""
        # The U55 has no dedicated SRAM port, so no SRAM-as-cache mode.
        if str(summary.get("target", "")).startswith("ethos-u55"):
            remedy = f'tune it for the board (ethosu_model(tune = True, board = "{board}")): a smaller schedule may fit'
        else:
            remedy = 'compile it with memory_mode = "Dedicated_Sram_384KB" (SRAM as a cache, feature maps in DRAM)'
        raise ModelDoesNotFit(
            f"model {summary.get('model')!r} needs {_kib(sram / KIB)} of SRAM (Vela, memory mode {mode}{split}) "
            f"but board {board} has {_kib(memory.sram_bytes / KIB)}: {remedy}, or use a board with more SRAM"
        )
    dram = sum(float(figures.get(key, 0)) for key in ("dram_used_kib", "off_chip_flash_used_kib")) * KIB
    if dram > memory.dram_bytes:
        raise ModelDoesNotFit(
            f"model {summary.get('model')!r} needs {_kib(dram / KIB)} of external memory (Vela: DRAM and "
            f"off-chip flash) but board {board} has {_kib(memory.dram_bytes / KIB)}: the model is too large "
            f"for this board"
        )


class WrongBoard(SdkError, ValueError):
    """The model's NPU is not the one the board is built with, unasked."""


# The subsystem each Ethos-U is built into on Arm's platforms: a U85 sits in
# Corstone-320 (SSE-320), the U55/U65 in SSE-300 boards.
U85_BOARD = "corstone320"


def npu_board_note(target: str, board: str, board_given: bool) -> Optional[str]:
    """The one line to print for an Ethos-U85 program on a board built without
    one (an SSE-300 board) when the build asked for that board; None when the
    board is the U85's. Raises WrongBoard when the board was not asked for (the
    model is in another package, so ethosu_firmware could not see its target)."""
    descriptor = board_table.BOARDS.get(board)
    if not target.startswith("ethos-u85") or descriptor is None or descriptor["npu"] is None:
        return None
    if descriptor["npu"]["product"] == "ethos-u85":
        return None
    if not board_given:
        raise WrongBoard(
            f"the model is compiled for {target}, which is built into {U85_BOARD} (SSE-320), but the firmware "
            f'defaulted to {board}: pass board = "{U85_BOARD}" to ethosu_firmware'
        )
    cpu = descriptor["cpu"]["name"]
    return (
        f"note: an {target} on {board} ({cpu}) is unusual: no Arm platform puts an Ethos-U85 in this subsystem "
        f'(Corstone-320 does), only the SDK\'s QEMU device runs it; drop board = "{board}" for {U85_BOARD}'
    )
