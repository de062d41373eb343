"""TinyLm's one-token step in the shape the Ethos-U85 lowering takes.

ExecuTorch 1.5.1 does not delegate `KvStep` (tiny_lm.py) to the U85: the
partitioner rejects the float cache update and the mask's bool-to-float
cast, and the partition around them has a cycle (README.md). `U85Step` is
the same weights and the same arithmetic with nothing the partitioner
rejects, so the whole step is one NPU delegate:

- the token and its position come in one-hot and the embeddings are
  matrix products (a table lookup of one row, exactly, in float);
- the additive mask is an input the generation loop builds (0 up to the
  position, MASKED after it);
- the KV cache is program inputs, [1, HEADS, CACHE_LENGTH - 1, HEAD_DIM]
  per layer and per K/V, and the step returns the new position's key and
  value rows: attention runs over the cache concatenated with them, and the
  generation loop writes each row into its cache at the position (64 bytes
  a layer in int8, never the whole cache). The quantizer gives a
  concatenation's inputs and output one set of parameters, so a returned
  int8 row is already in its cache's quantization.

The cache holds positions 0 .. CACHE_LENGTH - 2; the current position is
the concatenated row, so a sequence has CACHE_LENGTH positions, as KvStep's.
"""

from __future__ import annotations

from typing import Iterator, List, Sequence, Tuple

import torch
from tiny_lm import CACHE_LENGTH, HEAD_DIM, HEADS, LAYERS, VOCABULARY, TinyLm, encode
from torch import nn

CACHED = CACHE_LENGTH - 1  # cache rows; the current position is the step's own row
# The mask's value after the position: softmax gives such a score
# exp(-32) of the weight of the position itself, and the int8 range of the
# masked scores stays fine enough for the unmasked ones.
MASKED = -32.0
CACHE_NAMES = [f"{kind}_cache_{layer}" for layer in range(LAYERS) for kind in ("k", "v")]
INPUT_NAMES = ["token", "position", "mask"] + CACHE_NAMES


def _table(embedding: nn.Embedding) -> nn.Linear:
    """The embedding as a bias-free Linear of a one-hot row."""
    linear = nn.Linear(embedding.num_embeddings, embedding.embedding_dim, bias=False)
    linear.weight.data = embedding.weight.data.t().contiguous()
    return linear


class U85Step(nn.Module):
    """One token per call; the caches are inputs, the new rows outputs."""

    def __init__(self, lm: TinyLm) -> None:
        super().__init__()
        self.embed = _table(lm.embed)
        self.position = _table(lm.position)
        self.blocks = lm.blocks
        self.norm = lm.norm
        self.head = lm.head

    def forward(
        self, token: torch.Tensor, position: torch.Tensor, mask: torch.Tensor, *caches: torch.Tensor
    ) -> Tuple[torch.Tensor, ...]:
        """Logits [1, 1, vocabulary] and each layer's k and v row [1, HEADS, 1, HEAD_DIM]."""
        x = self.embed(token) + self.position(position)
        rows: List[torch.Tensor] = []
        for layer, block in enumerate(self.blocks):
            q, k, v = block.heads(x)
            keys = torch.cat([caches[2 * layer], k], dim=2)
            values = torch.cat([caches[2 * layer + 1], v], dim=2)
            x = block.attend(x, q, keys, values, mask)
            rows += [k, v]
        return (self.head(self.norm(x)), *rows)


def one_hot(index: int, size: int) -> torch.Tensor:
    row = torch.zeros(1, 1, size)
    row[0, 0, index] = 1.0
    return row


def mask_at(position: int) -> torch.Tensor:
    """0 over the cache rows before `position` and the step's own row, MASKED over the rest."""
    mask = torch.zeros(1, 1, 1, CACHE_LENGTH)
    mask[..., position:CACHED] = MASKED
    return mask


def empty_caches() -> List[torch.Tensor]:
    return [torch.zeros(1, HEADS, CACHED, HEAD_DIM) for _ in CACHE_NAMES]


def step_inputs(token: int, position: int, caches: Sequence[torch.Tensor]) -> Tuple[torch.Tensor, ...]:
    if not 0 <= token < len(VOCABULARY):
        raise ValueError(f"token id {token} is outside the vocabulary of {len(VOCABULARY)}")
    if not 0 <= position < CACHE_LENGTH:
        raise ValueError(f"position {position} is past the cache of {CACHE_LENGTH} positions")
    return (one_hot(token, len(VOCABULARY)), one_hot(position, CACHE_LENGTH), mask_at(position), *caches)


def write_rows(caches: List[torch.Tensor], rows: Sequence[torch.Tensor], position: int) -> None:
    """Each step's k/v row into its cache at `position` (the last position needs no row)."""
    if position < CACHED:
        for cache, row in zip(caches, rows):
            cache[:, :, position] = row[:, :, 0]


def run(step: nn.Module, tokens: Sequence[int]) -> Iterator[Tuple[Tuple[torch.Tensor, ...], torch.Tensor]]:
    """Teacher-forced: each call's inputs and logits for `tokens` from position 0."""
    caches = empty_caches()
    for position, token in enumerate(tokens):
        inputs = step_inputs(token, position, caches)
        with torch.no_grad():
            logits, *rows = step(*inputs)
        yield inputs, logits
        write_rows(caches, rows, position)


def load_lm(weights: str) -> TinyLm:
    lm = TinyLm()
    lm.load_state_dict(torch.load(weights, weights_only=True))
    return lm.eval().requires_grad_(False)


def build(weights: str = "") -> Tuple[nn.Module, Tuple[torch.Tensor, ...]]:
    """For ethosu_model: the step with the trained weights and an example call
    (a token at position 3 with three cached positions, from the float model)."""
    import os

    path = weights or os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny_lm.pt")
    step = U85Step(load_lm(path)).eval()
    inputs = [call for call, _ in run(step, encode("The "))][-1]
    return step, inputs
