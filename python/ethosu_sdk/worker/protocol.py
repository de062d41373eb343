"""Bazel's JSON worker protocol: WorkRequests in, WorkResponses out.

Messages are JSON objects with protobuf's JSON names (camelCase); a field at
its default value may be absent. Bazel ends each message with a newline, but
the reader does not depend on it: objects are decoded one after another,
whatever the line breaks inside or between them.
"""

from __future__ import annotations

import dataclasses
import json
from typing import BinaryIO, Iterator

from ethosu_sdk.errors import SdkError


class ProtocolError(SdkError):
    """The stream is not a sequence of WorkRequest objects."""


@dataclasses.dataclass(frozen=True)
class WorkRequest:
    arguments: tuple[str, ...]
    request_id: int = 0
    verbosity: int = 0
    cancel: bool = False


@dataclasses.dataclass(frozen=True)
class WorkResponse:
    exit_code: int
    output: str
    request_id: int = 0


def parse_request(message: object) -> WorkRequest:
    if not isinstance(message, dict):
        raise ProtocolError(f"a WorkRequest must be a JSON object, got {type(message).__name__}")
    arguments = message.get("arguments", [])
    if not isinstance(arguments, list) or not all(isinstance(a, str) for a in arguments):
        raise ProtocolError("WorkRequest.arguments must be a list of strings")
    return WorkRequest(
        arguments=tuple(arguments),
        request_id=int(message.get("requestId", 0)),
        verbosity=int(message.get("verbosity", 0)),
        cancel=bool(message.get("cancel", False)),
    )


def read_requests(stream: BinaryIO) -> Iterator[WorkRequest]:
    """Yields each request as soon as it is complete; returns at end of stream."""
    decoder = json.JSONDecoder()
    pending = ""
    while True:
        pending = pending.lstrip()
        if pending:
            try:
                message, end = decoder.raw_decode(pending)
            except json.JSONDecodeError:
                pass  # incomplete: read on
            else:
                pending = pending[end:]
                yield parse_request(message)
                continue
        line = stream.readline()
        if not line:
            if pending.strip():
                raise ProtocolError(f"stream ended inside a message: {pending[:200]!r}")
            return
        pending += line.decode("utf-8")


def encode_response(response: WorkResponse) -> bytes:
    message = {"exitCode": response.exit_code, "output": response.output, "requestId": response.request_id}
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


def write_response(stream: BinaryIO, response: WorkResponse) -> None:
    stream.write(encode_response(response))
    stream.flush()
