"""ExecuTorch's side of the differential suite, in a process of its own.

Reads requests from stdin and answers on stdout, each a 8-byte length and
a pickle: a request is (pte bytes, input tensors), an answer the outputs as
numpy arrays or the error text of a sample executorch.runtime refused.
A kernel that aborts ends this process; the suite sees the pipe close and
starts another. Started by `differential.Reference`: a fresh interpreter,
not a fork of the suite's (a fork of a process with running threads can
deadlock on a lock one of them held, as it did here).
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
from typing import Any, BinaryIO, Optional

_LENGTH = struct.Struct("<Q")


def read_message(stream: BinaryIO) -> Optional[Any]:
    """The next message, or None at the end of the stream."""
    header = stream.read(_LENGTH.size)
    if len(header) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(header)
    body = stream.read(size)
    if len(body) < size:
        return None
    return pickle.loads(body)


def write_message(stream: BinaryIO, message: Any) -> None:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(body)) + body)
    stream.flush()


def main() -> None:
    # The answers go to a private copy of stdout; anything the runtime's C++
    # prints on fd 1 goes to stderr instead of into the protocol.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    import numpy as np
    import torch
    from executorch.runtime import Runtime

    runtime = Runtime.get()
    requests = sys.stdin.buffer
    while True:
        request = read_message(requests)
        if request is None:
            return
        pte, inputs = request
        try:
            method = runtime.load_program(pte).load_method("forward")
            outputs = method.execute(inputs)
            result: Any = [o.contiguous().numpy() if isinstance(o, torch.Tensor) else np.asarray(o) for o in outputs]
        except Exception as e:  # the portable kernel refused the sample
            result = f"{type(e).__name__}: {e}"
        write_message(answers, result)


if __name__ == "__main__":
    main()
