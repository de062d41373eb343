"""Writes a copy of a .pte whose Ethos-U command stream is broken on purpose,
for the firmware's bad-path tests: everything else (flatbuffer, Vela blocks,
COP1 header) stays valid, so the runtime and the driver accept the payload
and only the NPU can find the fault.

  --mode=parse_error   the first command becomes an opcode no Ethos-U has
  --mode=bus_error     the first IFM_BASE0 points 2 GiB past its region
"""

from __future__ import annotations

import struct
import sys

from absl import app, flags

from ethosu_sdk.pte import reader
from ethosu_sdk.pte.ethosu_payload import vela_blocks

FLAGS = flags.FLAGS
flags.DEFINE_string("pte", None, "The program to copy.", required=True)
flags.DEFINE_enum("mode", None, ["parse_error", "bus_error"], "What to break.", required=True)
flags.DEFINE_string("out", None, "The broken copy.", required=True)

_BLOCK_HEADER = 32
_COP1_HEADER = 16  # "COP1", config tag, arch config, arch version
_DRIVER_NOP = 0x05  # driver payload tags (low byte)
_DRIVER_CMDSTRM = 0x02
_OPCODE_MASK = 0x3FF  # command word bits 9:0
_PAYLOAD_FLAG = 1 << 14  # command word bits 15:14 == 1: one payload word follows
_CMD1_IFM_BASE0 = 0
# Opcode 0x3FF with no payload: not a command of any Ethos-U.
_INVALID_COMMAND = 0x000003FF
_FAR_OFFSET = 0x80000000


def command_stream_offset(payload: bytes) -> tuple[int, int]:
    """(byte offset of the first command word in the payload, word count)."""
    offset = 0
    for name, length in vela_blocks(payload).items():
        data = offset + _BLOCK_HEADER
        if name == "cmd_data":
            at = data + _COP1_HEADER
            while True:
                (tag,) = struct.unpack_from("<I", payload, at)
                at += 4
                if tag & 0xFF == _DRIVER_NOP:
                    continue
                if tag & 0xFF != _DRIVER_CMDSTRM:
                    raise reader.PteError(f"unexpected driver tag {tag:#010x}")
                return at, (((tag >> 8) & 0xFF) << 16) | (tag >> 16)
        offset = data + (length + 15) // 16 * 16
    raise reader.PteError("the Ethos-U payload has no cmd_data block")


def tamper(blob: bytearray, mode: str) -> None:
    program = reader.parse_pte(bytes(blob))
    delegate = program.plan().delegates[0]
    if delegate.location != "segment":
        raise reader.PteError("the Ethos-U payload is inline; expected a segment")
    base = delegate.payload_offset
    payload = bytes(blob[base : base + delegate.payload_size])
    first, words = command_stream_offset(payload)
    if mode == "parse_error":
        struct.pack_into("<I", blob, base + first, _INVALID_COMMAND)
        return
    i = 0
    while i < words:
        (word,) = struct.unpack_from("<I", payload, first + 4 * i)
        if not word & _PAYLOAD_FLAG:
            i += 1
            continue
        if word & _OPCODE_MASK == _CMD1_IFM_BASE0:
            struct.pack_into("<I", blob, base + first + 4 * (i + 1), _FAR_OFFSET)
            return
        i += 2
    raise reader.PteError("the command stream sets no IFM_BASE0")


def main(argv: list[str]) -> int:
    del argv
    with open(FLAGS.pte, "rb") as f:
        blob = bytearray(f.read())
    try:
        tamper(blob, FLAGS.mode)
    except reader.PteError as error:
        print(f"tamper_command_stream: {FLAGS.pte}: {error}", file=sys.stderr)
        return 1
    with open(FLAGS.out, "wb") as f:
        f.write(blob)
    return 0


if __name__ == "__main__":
    app.run(main)
