"""examples/lm's tiny language model generating on our runtime.

The KV-cache step (caches as mutable buffers, index_put_ at the position)
runs as one sequence of calls on one loaded method: the prompt, then each
greedy token fed back. Our host runner's logits must match executorch.runtime's
making the same calls (within 1e-5 of the step's largest logit), and each step's argmax must be the
token PyTorch's eager greedy generation chose, so the text is identical.
A token outside the vocabulary or a position past the cache is one error
line, after which nothing more runs.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
from tiny_lm import CACHE_LENGTH, VOCABULARY, decode

from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors.tensor_file import encode, read_tensor_file

HERE = Path("tests/lm")
RUNNER = Path("sim/host/host_runner")
GENERATED = 64


def test_generation_matches_executorch_and_pytorch() -> None:
    run = subprocess.run(
        [
            str(RUNNER),
            f"--pte={HERE / 'tiny_lm_step.pte'}",
            f"--input={HERE / 'generation.tensors'}",
            f"--expected={HERE / 'generation.expected.tensors'}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    parsed = protocol.parse(run.stdout)
    assert parsed.result == "PASS" and run.returncode == 0, parsed.errors or run.stderr[-2000:]

    calls = [t.data for t in read_tensor_file(HERE / "generation.tensors")]
    torch_logits = [t.data for t in read_tensor_file(HERE / "generation.torch.tensors")]
    assert len(parsed.outputs) == len(torch_logits) == len(calls) // 2
    ours = [int(np.argmax(parsed.outputs[i])) for i in range(len(torch_logits))]
    theirs = [int(np.argmax(t)) for t in torch_logits]
    prompt_length = len(calls) // 2 - GENERATED + 1
    # Each generated token is the argmax of the previous step, fed back as the next call's token.
    fed_back = [int(calls[2 * i][0, 0]) for i in range(prompt_length, len(calls) // 2)]
    assert ours[prompt_length - 1 : -1] == theirs[prompt_length - 1 : -1] == fed_back
    print(decode(ours[prompt_length - 1 :]))


def _bad_call(tmp_path: Path, token: int, position: int) -> protocol.Run:
    """The first prompt call, then one call with `token` at `position`."""
    first = read_tensor_file(HERE / "generation.tensors")[:2]
    calls = tmp_path / "calls.tensors"
    calls.write_bytes(encode([t.data for t in first] + [np.array([[token]], np.int64), np.array([position], np.int64)]))
    run = subprocess.run(
        [str(RUNNER), f"--pte={HERE / 'tiny_lm_step.pte'}", f"--input={calls}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    parsed = protocol.parse(run.stdout)
    assert run.returncode == 2 and parsed.result == "ERROR" and len(parsed.errors) == 1, run.stdout[-2000:]
    assert 0 in parsed.outputs and 1 not in parsed.outputs  # the good call ran, the bad one gave nothing
    return parsed


def test_token_outside_the_vocabulary_is_one_error(tmp_path: Path) -> None:
    parsed = _bad_call(tmp_path, len(VOCABULARY), 1)
    assert f"index {len(VOCABULARY)}" in parsed.errors[0] and "out of range" in parsed.errors[0], parsed.errors


def test_position_past_the_cache_is_one_error(tmp_path: Path) -> None:
    parsed = _bad_call(tmp_path, 5, CACHE_LENGTH)
    assert f"index {CACHE_LENGTH}" in parsed.errors[0] and "out of range" in parsed.errors[0], parsed.errors
