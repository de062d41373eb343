"""Greedy generation with TinyLm's KV-cache step, and its export.

    python examples/lm/generate.py --out_dir=DIR [--tokens=64]

writes DIR/tiny_lm_step.pte, the one-token step (KvStep) lowered to an
ExecuTorch CPU program whose caches are mutable buffers updated in place
(index_put_ at the position), DIR/generation.tensors, the sequence of calls
(token, position) that prefills PROMPT and then feeds back each greedy
token, and DIR/generation.expected.tensors, PyTorch's logits for every call.
"""

from __future__ import annotations

import os
from typing import List, Tuple

import torch
from absl import app, flags
from executorch.exir import ExecutorchBackendConfig, to_edge
from tiny_lm import CACHE_LENGTH, KvStep, TinyLm, decode
from tiny_lm import encode as tokenize

from ethosu_sdk.tensors.tensor_file import encode

HERE = os.path.dirname(os.path.abspath(__file__))
PROMPT = "The import statement"
flags.DEFINE_string("out_dir", None, "Where the program and the tensor files are written.")
flags.DEFINE_string("weights", os.path.join(HERE, "tiny_lm.pt"), "TinyLm's state dict (train.py).")
flags.DEFINE_integer("tokens", 64, "Tokens generated after the prompt.")
FLAGS = flags.FLAGS


def load_step(weights: str) -> KvStep:
    lm = TinyLm()
    lm.load_state_dict(torch.load(weights, weights_only=True))
    return KvStep(lm).eval().requires_grad_(False)


def step_inputs(token: int, position: int) -> Tuple[torch.Tensor, torch.Tensor]:
    return torch.tensor([[token]], dtype=torch.int64), torch.tensor([position], dtype=torch.int64)


def greedy(step: KvStep, prompt: List[int], tokens: int) -> Tuple[List[Tuple[torch.Tensor, ...]], List[torch.Tensor]]:
    """The calls (prompt, then each argmax fed back) and each call's logits."""
    if len(prompt) + tokens > CACHE_LENGTH:
        raise SystemExit(
            f"generate.py: error: {len(prompt)} prompt + {tokens} generated tokens exceed the cache of {CACHE_LENGTH}"
        )
    calls, logits = [], []
    token = prompt[0]
    for position in range(len(prompt) + tokens - 1):
        calls.append(step_inputs(token, position))
        with torch.no_grad():
            logits.append(step(*calls[-1]).clone())
        token = prompt[position + 1] if position + 1 < len(prompt) else int(logits[-1].argmax())
    return calls, logits


def lower(step: KvStep) -> bytes:
    exported = torch.export.export(step, step_inputs(0, 0))
    return to_edge(exported).to_executorch(ExecutorchBackendConfig(run_reinplace_pass=True)).buffer


def main(argv: List[str]) -> None:
    del argv
    prompt = tokenize(PROMPT)
    calls, logits = greedy(load_step(FLAGS.weights), prompt, FLAGS.tokens)
    generated = [int(lg.argmax()) for lg in logits[len(prompt) - 1 :]]
    print(f"{PROMPT}|{decode(generated)}")
    os.makedirs(FLAGS.out_dir, exist_ok=True)
    with open(os.path.join(FLAGS.out_dir, "tiny_lm_step.pte"), "wb") as f:
        f.write(lower(load_step(FLAGS.weights)))
    with open(os.path.join(FLAGS.out_dir, "generation.tensors"), "wb") as f:
        f.write(encode([t.numpy() for call in calls for t in call]))
    with open(os.path.join(FLAGS.out_dir, "generation.expected.tensors"), "wb") as f:
        f.write(encode([lg.numpy() for lg in logits]))


if __name__ == "__main__":
    flags.mark_flag_as_required("out_dir")
    app.run(main)
