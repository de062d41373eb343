"""Trains examples/lm's TinyLm on the documentation topics that CPython
ships (pydoc_data/topics.py, the text of `help("topic")`), and writes the
weights and the held-out text that ship beside this script.

    python examples/lm/train.py            # from the venv; minutes on one CPU thread

Why this corpus: it is English prose about a subject the SDK's users know,
present offline on every machine with CPython (here Debian's
libpython3.11-stdlib), under the PSF licence, and large enough (0.7 MB) for
a 0.1 M-parameter model. The file is pinned by its SHA-256: another CPython's
topics differ, and the script refuses them.

Deterministic: a fixed seed, one torch thread, a fixed split (every tenth
topic, in sorted order, is held out). Outputs:
  tiny_lm.pt       the state dict of TinyLm
  held_out.txt     the first HELD_OUT_CHARS characters of the held-out topics
"""

from __future__ import annotations

import ast
import hashlib
import os
from typing import Dict, List, Tuple

import torch
from absl import app, flags
from tiny_lm import CACHE_LENGTH, TinyLm, encode

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = "/usr/lib/python3.11/pydoc_data/topics.py"
CORPUS_SHA256 = "2d8108030912648feda37d4894ab700d247582568fe7a53260dd6a3c2d8e518d"
flags.DEFINE_string("corpus", CORPUS, "CPython 3.11's pydoc_data/topics.py (pinned by SHA-256).")
flags.DEFINE_string("output_dir", HERE, "Where tiny_lm.pt and held_out.txt are written.")
flags.DEFINE_integer("steps", 3000, "AdamW steps.")
FLAGS = flags.FLAGS

SEED = 0
BATCH = 32
LEARNING_RATE = 3e-3
WEIGHT_DECAY = 0.01
HELD_OUT_EVERY = 10
HELD_OUT_CHARS = 8192


def read_topics(path: str) -> Dict[str, str]:
    """The `topics` dict of the pinned file, read as a literal (never run)."""
    with open(path, "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != CORPUS_SHA256:
        raise SystemExit(
            f"train.py: error: {path} has SHA-256 {digest}, not the pinned {CORPUS_SHA256}; give --corpus the pinned file"
        )
    tree = ast.parse(data)
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "topics":
            return ast.literal_eval(node.value)
    raise SystemExit(f"train.py: error: {path} has no topics dict")


def split(topics: Dict[str, str]) -> Tuple[str, str]:
    """Training text and held-out text: every HELD_OUT_EVERY-th topic."""
    names = sorted(topics)
    train = [topics[n] for i, n in enumerate(names) if i % HELD_OUT_EVERY != HELD_OUT_EVERY - 1]
    held = [topics[n] for i, n in enumerate(names) if i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1]
    return "\n".join(train), "\n".join(held)


def batches(ids: torch.Tensor, generator: torch.Generator) -> Tuple[torch.Tensor, torch.Tensor]:
    starts = torch.randint(0, len(ids) - CACHE_LENGTH - 1, (BATCH,), generator=generator)
    window = torch.stack([ids[s : s + CACHE_LENGTH + 1] for s in starts.tolist()])
    return window[:, :-1], window[:, 1:]


def perplexity(model: TinyLm, ids: List[int]) -> float:
    """exp of the mean next-token loss over windows of CACHE_LENGTH."""
    tokens = torch.tensor(ids)
    losses = []
    with torch.no_grad():
        for start in range(0, len(tokens) - CACHE_LENGTH, CACHE_LENGTH):
            window = tokens[start : start + CACHE_LENGTH + 1]
            logits = model(window[None, :-1])
            losses.append(torch.nn.functional.cross_entropy(logits[0], window[1:]))
    return float(torch.exp(torch.stack(losses).mean()))


def main(argv: List[str]) -> None:
    del argv
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    train_text, held_text = split(read_topics(FLAGS.corpus))
    ids = torch.tensor(encode(train_text))
    model = TinyLm()
    optimiser = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, LEARNING_RATE, total_steps=FLAGS.steps)
    generator = torch.Generator().manual_seed(SEED)
    for step in range(FLAGS.steps):
        inputs, targets = batches(ids, generator)
        loss = torch.nn.functional.cross_entropy(model(inputs).flatten(0, 1), targets.flatten())
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 250 == 0:
            print(f"step {step} loss {loss.item():.3f}", flush=True)
    model.eval()
    held = held_text[:HELD_OUT_CHARS]
    print(f"{len(train_text)} training characters; held-out perplexity {perplexity(model, encode(held)):.3f}")
    torch.save(model.state_dict(), os.path.join(FLAGS.output_dir, "tiny_lm.pt"))
    with open(os.path.join(FLAGS.output_dir, "held_out.txt"), "w") as f:
        f.write(held)


if __name__ == "__main__":
    app.run(main)
