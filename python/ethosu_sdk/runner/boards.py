"""How each board is simulated: the emulator and the flags it needs."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Board:
    name: str
    description: str
    # argv to run an ELF; "{elf}" is replaced by its path.
    command: tuple[str, ...]


# -icount shift=0: one virtual nanosecond per instruction, so the board's
# timer counts instructions and every run is deterministic.
QEMU_AN547 = Board(
    name="qemu_an547",
    description="QEMU mps3-an547 (Cortex-M55, SSE-300)",
    command=(
        "qemu-system-arm",
        "-M", "mps3-an547",
        "-nographic",
        "-monitor", "none",
        "-semihosting-config", "enable=on,target=native",
        "-icount", "shift=0",
        "-kernel", "{elf}",
    ),
)

BOARDS = {b.name: b for b in (QEMU_AN547,)}


def command_for(board: str, elf: str) -> list[str]:
    if board not in BOARDS:
        raise ValueError(f"unknown board {board!r}; known boards: {', '.join(sorted(BOARDS))}")
    return [arg.replace("{elf}", elf) for arg in BOARDS[board].command]
