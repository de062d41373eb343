"""Splits an Ethos-U delegate payload into its named blocks.

Layout (from executorch's `backends/arm/arm_vela.py`): a sequence of blocks,
each a 16-byte NUL-padded name, a little-endian u32 data length, a u8
external-reference flag and 11 reserved bytes, then the data padded to 16
bytes; the first block is `vela_bin_stream`, the last `vela_end_stream`.
"""

from __future__ import annotations

import struct

from ethosu_sdk.pte.reader import PteError

_BLOCK_HEADER = struct.Struct("<16sIB11s")


def vela_blocks(payload: bytes) -> dict[str, int]:
    """Block name -> data length, in payload order; validates every length."""
    blocks: dict[str, int] = {}
    offset = 0
    while offset < len(payload):
        if offset + _BLOCK_HEADER.size > len(payload):
            raise PteError(f"Ethos-U payload: block header at {offset} runs past {len(payload)} bytes")
        raw_name, length, _external, _reserved = _BLOCK_HEADER.unpack_from(payload, offset)
        name = raw_name.split(b"\0", 1)[0].decode("ascii", "replace")
        padded = (length + 15) // 16 * 16
        offset += _BLOCK_HEADER.size
        if offset + padded > len(payload):
            raise PteError(f"Ethos-U payload: block {name!r} of {length} bytes runs past the payload")
        blocks[name] = length
        offset += padded
        if name == "vela_end_stream":
            break
    if not blocks or next(iter(blocks)) != "vela_bin_stream" or "vela_end_stream" not in blocks:
        raise PteError("Ethos-U payload does not start with vela_bin_stream and end with vela_end_stream")
    return blocks
