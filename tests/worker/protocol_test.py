"""The JSON worker protocol: requests however Bazel breaks the lines, responses one a line."""

from __future__ import annotations

import io
import json

import pytest

from ethosu_sdk.worker.protocol import ProtocolError, WorkRequest, WorkResponse, encode_response, read_requests


def requests_in(text: str) -> list[WorkRequest]:
    return list(read_requests(io.BytesIO(text.encode())))


def test_one_request_a_line_defaults_absent() -> None:
    text = '{"arguments":["--a=1","--b"],"requestId":3}\n{"arguments":[]}\n'
    assert requests_in(text) == [WorkRequest(("--a=1", "--b"), 3), WorkRequest(())]


def test_pretty_printed_and_back_to_back_objects() -> None:
    text = (
        '{\n  "arguments": [\n    "x"\n  ],\n  "inputs": [{"path": "p", "digest": "d"}],\n  "verbosity": 10\n}'
        '{"arguments":["y"],"requestId":2}\n'
    )
    assert requests_in(text) == [WorkRequest(("x",), verbosity=10), WorkRequest(("y",), 2)]


def test_unicode_arguments() -> None:
    assert requests_in(json.dumps({"arguments": ["--model=é"]}) + "\n") == [WorkRequest(("--model=é",))]


@pytest.mark.parametrize("text", ['{"arguments":["x"]', '["x"]\n', '{"arguments":"x"}\n'])
def test_malformed_streams_are_errors(text: str) -> None:
    with pytest.raises(ProtocolError):
        requests_in(text)


def test_response_is_one_line_of_camel_case_json() -> None:
    line = encode_response(WorkResponse(exit_code=2, output="error: a\nb\n", request_id=7))
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {"exitCode": 2, "output": "error: a\nb\n", "requestId": 7}
