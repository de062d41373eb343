"""The corstone-320 machine's memory map, read from its source
(qemu/hw/arm/corstone320.c), and a firmware ELF's program headers checked
against it."""

import re
import struct


def machine_constants(source_path: str) -> dict[str, int]:
    """The C320_* address, size and IRQ constants."""
    with open(source_path) as f:
        source = f.read()
    found = {}
    for name, expression in re.findall(r"^#define (C320_\w+)\s+(\(?[0-9xa-fA-F* ]+(?:KiB|MiB)?\)?)", source, re.M):
        found[name] = eval(expression, {"KiB": 1 << 10, "MiB": 1 << 20})  # pylint: disable=eval-used
    return found


def load_segments(path: str) -> tuple[int, list[tuple[int, int]]]:
    """ELF32 little-endian: the entry point and each PT_LOAD's (paddr, bytes in memory)."""
    with open(path, "rb") as f:
        image = f.read()
    assert image[:4] == b"\x7fELF" and image[4] == 1 and image[5] == 1
    entry, phoff = struct.unpack_from("<II", image, 24)
    phentsize, phnum = struct.unpack_from("<HH", image, 42)
    segments = []
    for i in range(phnum):
        kind, _, _, paddr, filesz, memsz = struct.unpack_from("<IIIIII", image, phoff + i * phentsize)
        if kind == 1 and memsz:
            segments.append((paddr, max(filesz, memsz)))
    return entry, segments


def check_elf(firmware: str, c: dict[str, int]) -> None:
    """Every loaded segment inside one of the machine's memories, the vector
    table at the start of the boot ROM, the entry point in a memory."""
    machine = [(c["C320_BROM_S"], c["C320_BROM_SIZE"])] + [
        (c[f"C320_{name}_S"], c[f"C320_{name}_SIZE"]) for name in ("ITCM", "BRAM", "DTCM", "SRAM", "DDR")
    ]
    entry, segments = load_segments(firmware)
    for start, size in segments:
        assert any(base <= start and start + size <= base + length for base, length in machine), (
            f"{firmware}: segment 0x{start:08x}+0x{size:x} outside the machine's memories"
        )
    # The vector table is the first thing in the boot ROM the core resets into.
    assert any(start == c["C320_BROM_S"] for start, _ in segments), f"{firmware}: nothing at the boot ROM"
    assert any(base <= entry < base + length for base, length in machine), f"{firmware}: entry 0x{entry:08x}"
