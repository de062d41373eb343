"""A tiny decoder-only transformer over characters, and its one-token step
with a KV cache for export (examples/lm).

Vocabulary: the 95 printable ASCII characters and newline (96 ids, no
tokenizer needed); any other byte of a text maps to `?`.

`TinyLm.forward(tokens)` runs a whole sequence with a causal mask (training,
perplexity). `KvStep` is the same weights as one call per token: it takes
the token id and its position, writes that position's keys and values into
mutable buffers (the cache, [1, heads, CACHE_LENGTH, head_dim] per layer, as
ExecuTorch's static cache lays it out) and attends over the positions up to
it through a mask built from the position, so the exported program has
fixed shapes. The prompt is prefilled one call per token, then each call
decodes one token.
"""

from __future__ import annotations

import math
from typing import List, Tuple

import torch
from torch import nn

VOCABULARY = "\n" + "".join(chr(c) for c in range(32, 127))
UNKNOWN = VOCABULARY.index("?")
LAYERS = 2
WIDTH = 64
HEADS = 4
HEAD_DIM = WIDTH // HEADS
MLP_WIDTH = 4 * WIDTH
CACHE_LENGTH = 128  # positions: the prompt and the generated tokens together


def encode(text: str) -> List[int]:
    """Token ids of `text`, one a character."""
    index = {c: i for i, c in enumerate(VOCABULARY)}
    return [index.get(c, UNKNOWN) for c in text]


def decode(ids: List[int]) -> str:
    return "".join(VOCABULARY[i] for i in ids)


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(WIDTH)
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.proj = nn.Linear(WIDTH, WIDTH)
        self.norm2 = nn.LayerNorm(WIDTH)
        self.up = nn.Linear(WIDTH, MLP_WIDTH)
        self.down = nn.Linear(MLP_WIDTH, WIDTH)

    def heads(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """q, k, v of x [1, T, WIDTH], each [1, HEADS, T, HEAD_DIM]."""
        q, k, v = self.qkv(self.norm1(x)).split(WIDTH, dim=-1)
        shape = (x.shape[0], x.shape[1], HEADS, HEAD_DIM)
        return tuple(t.reshape(shape).transpose(1, 2) for t in (q, k, v))  # type: ignore[return-value]

    def attend(
        self, x: torch.Tensor, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        """x plus attention of q over k, v (additive `mask`), plus the MLP."""
        scores = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(HEAD_DIM)) + mask
        attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(x.shape)
        x = x + self.proj(attended)
        return x + self.down(nn.functional.gelu(self.up(self.norm2(x))))


class TinyLm(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(len(VOCABULARY), WIDTH)
        self.position = nn.Embedding(CACHE_LENGTH, WIDTH)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = nn.LayerNorm(WIDTH)
        self.head = nn.Linear(WIDTH, len(VOCABULARY))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Next-token logits [B, T, vocabulary] of tokens [B, T] (T <= CACHE_LENGTH)."""
        length = tokens.shape[1]
        x = self.embed(tokens) + self.position(torch.arange(length))
        causal = torch.full((length, length), float("-inf")).triu(1)
        for block in self.blocks:
            q, k, v = block.heads(x)
            x = block.attend(x, q, k, v, causal)
        return self.head(self.norm(x))


# What the mask adds at positions after the current one: large enough that
# softmax gives them nothing, finite so quantization has a range.
MASKED = -1e4


class KvStep(nn.Module):
    """One token per call over a KV cache kept in mutable buffers."""

    def __init__(self, lm: TinyLm) -> None:
        super().__init__()
        self.lm = lm
        for layer in range(LAYERS):
            shape = (1, HEADS, CACHE_LENGTH, HEAD_DIM)
            self.register_buffer(f"k_cache_{layer}", torch.zeros(shape))
            self.register_buffer(f"v_cache_{layer}", torch.zeros(shape))

    def forward(self, token: torch.Tensor, position: torch.Tensor) -> torch.Tensor:
        """Logits [1, 1, vocabulary] after token [1, 1] at position [1]."""
        x = self.lm.embed(token) + self.lm.position(position).unsqueeze(0)
        # 0 up to the position, MASKED after it.
        mask = (torch.arange(CACHE_LENGTH) > position).to(torch.float32) * MASKED
        for layer, block in enumerate(self.lm.blocks):
            q, k, v = block.heads(x)
            k_cache, v_cache = getattr(self, f"k_cache_{layer}"), getattr(self, f"v_cache_{layer}")
            k_cache.index_copy_(2, position, k)
            v_cache.index_copy_(2, position, v)
            x = block.attend(x, q, k_cache, v_cache, mask)
        return self.lm.head(self.lm.norm(x))
