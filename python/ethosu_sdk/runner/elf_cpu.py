"""The CPU a firmware image was built for, from its Arm build attributes
(the `.ARM.attributes` section the compiler writes: Tag_CPU_name and the
extensions the code may use), and the addresses its sections occupy, so the
runner can refuse an image whose code the board's CPU cannot execute, or
which was linked for another board's memory, before the simulator faults on
it.

Format: Arm's "Addenda to, and Errata in, the ABI for the Arm Architecture"
(build attributes): a version byte 'A', then vendor subsections (length,
NUL-terminated vendor name, then tagged sub-subsections); in the "aeabi"
vendor's file-scope (tag 1) sub-subsection, attributes are ULEB128 tag /
value pairs, the value a NUL-terminated string for tags 4, 5, 67 and odd
tags above 32, and a ULEB128 otherwise (tag 32: a ULEB128 and a string).
"""

from __future__ import annotations

import dataclasses
import struct

# Tags used here (the addenda's numbering).
TAG_FILE = 1
TAG_CPU_NAME = 5
TAG_COMPATIBILITY = 32
TAG_MVE_ARCH = 48
_STRING_TAGS = {4, 5, 67}

_ELF_HEADER = struct.Struct("<16sHHIIIIIHHHHHH")  # ELF32 little-endian header
_SECTION = struct.Struct("<IIIIIIIIII")  # ELF32 section header
SHF_ALLOC = 0x2  # sh_flags: the section occupies memory at run time


@dataclasses.dataclass(frozen=True)
class CpuAttributes:
    cpu: str  # Tag_CPU_name as the compiler wrote it ("cortex-m55"), or ""
    mve: bool  # the code may use Helium (M-profile Vector Extension)


def _uleb(data: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def _string(data: bytes, at: int) -> tuple[str, int]:
    end = data.index(b"\0", at)
    return data[at:end].decode("ascii", "replace"), end + 1


def _file_attributes(section: bytes) -> dict[int, int | str]:
    attributes: dict[int, int | str] = {}
    if not section or section[0:1] != b"A":
        return attributes
    at = 1
    while at + 4 <= len(section):
        (length,) = struct.unpack_from("<I", section, at)
        end = at + length
        vendor, body = _string(section, at + 4)
        if vendor == "aeabi":
            while body + 5 <= end:
                tag, after_tag = _uleb(section, body)
                (size,) = struct.unpack_from("<I", section, after_tag)
                if tag == TAG_FILE:
                    pos, stop = after_tag + 4, body + size
                    while pos < stop:
                        key, pos = _uleb(section, pos)
                        value: int | str
                        if key in _STRING_TAGS or (key > TAG_COMPATIBILITY and key % 2 == 1):
                            value, pos = _string(section, pos)
                        elif key == TAG_COMPATIBILITY:
                            value, pos = _uleb(section, pos)
                            _, pos = _string(section, pos)
                        else:
                            value, pos = _uleb(section, pos)
                        attributes[key] = value
                body += max(size, 1)
        if length == 0:
            break
        at = end
    return attributes


@dataclasses.dataclass(frozen=True)
class Section:
    name: str
    address: int
    size: int


def _sections(data: bytes) -> list[tuple[str, tuple[int, ...]]] | None:
    """(name, header fields) of every section of a 32-bit little-endian ELF;
    None when `data` is not one."""
    header = _ELF_HEADER.unpack_from(data, 0)
    ident, shoff, shentsize, shnum, shstrndx = header[0], header[6], header[11], header[12], header[13]
    if ident[4] != 1 or ident[5] != 1 or shoff == 0 or shentsize != _SECTION.size or shstrndx >= shnum:
        return None
    headers = [_SECTION.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
    names_at = headers[shstrndx][4]
    return [(_string(data, names_at + h[0])[0], h) for h in headers]


def read_allocated_sections(path: str) -> list[Section] | None:
    """The sections of the ELF at `path` that occupy memory on the board
    (code, data, and the NOLOAD ones: bss, stack, heap), non-empty ones
    only; None when it is not a readable 32-bit little-endian ELF."""
    try:
        with open(path, "rb") as f:
            sections = _sections(f.read())
    except (OSError, struct.error, IndexError, ValueError):
        return None
    if sections is None:
        return None
    # Section header fields: flags [2], address [3], size [5].
    return [Section(name, h[3], h[5]) for name, h in sections if h[2] & SHF_ALLOC and h[5] > 0]


def read_cpu_attributes(path: str) -> CpuAttributes | None:
    """The build attributes of the ELF at `path`; None when it is not a
    32-bit little-endian ELF or has no readable attributes section (then
    nothing is known, and nothing is refused)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        sections = _sections(data)
        if sections is None:
            return None
        for name, section in sections:
            if name == ".ARM.attributes":
                offset, size = section[4], section[5]
                attributes = _file_attributes(data[offset : offset + size])
                cpu = attributes.get(TAG_CPU_NAME, "")
                return CpuAttributes(
                    cpu=str(cpu).lower(),
                    mve=int(attributes.get(TAG_MVE_ARCH, 0) or 0) > 0,
                )
        return None
    except (OSError, struct.error, IndexError, ValueError):
        return None
