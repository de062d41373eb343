"""examples/lm's tiny language model generating on our runtime.

The KV-cache step (caches as mutable buffers, index_put_ at the position)
runs as one sequence of calls on one loaded method: the prompt, then each
greedy token fed back. Our host runner's logits must match executorch.runtime's
making the same calls (within 1e-5 of the step's largest logit), and each step's argmax must be the
token PyTorch's eager greedy generation chose, so the text is identical.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
from tiny_lm import decode

from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors.tensor_file import read_tensor_file

HERE = Path("tests/lm")
RUNNER = Path("cc/runner/host_runner")
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
