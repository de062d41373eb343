"""Reader of the per-operation trace that sim/host/npu_run.cc writes (--trace)."""

import dataclasses
from typing import List

import numpy as np

_MAGIC = b"ESDKLTR1"
CHAIN_BUFFER = 8  # region number of the U85 chain buffer (not memory)


@dataclasses.dataclass(frozen=True)
class TracedOperation:
    command_offset: int
    opcode: int
    region: int
    ofm: np.ndarray  # int32 values, (height, width, depth) as stored
    offsets: np.ndarray  # uint32 byte offset in the region of each value


def read_trace(path: str) -> List[TracedOperation]:
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:8] != _MAGIC:
        raise ValueError(f"{path}: not a layer trace")
    at, operations = 8, []
    while at < len(blob):
        if len(blob) - at < 24:
            raise ValueError(f"{path}: truncated record header at byte {at}")
        offset, opcode, h, w, c, region = (int(v) for v in np.frombuffer(blob, np.uint32, 6, at))
        at += 24
        count = h * w * c
        if len(blob) - at < 8 * count:
            raise ValueError(f"{path}: truncated feature map at byte {at}")
        ofm = np.frombuffer(blob, np.int32, count, at).reshape(h, w, c)
        offsets = np.frombuffer(blob, np.uint32, count, at + 4 * count).reshape(h, w, c)
        at += 8 * count
        operations.append(TracedOperation(offset, opcode, region, ofm, offsets))
    return operations
