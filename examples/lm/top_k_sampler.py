"""Top-k sampling over int8 logits with integers only: the rule of
top_k_sampler.h written again for the host, so u85_check.py drives PyTorch's
quantized graph with the sampler the firmware runs.

Candidates are the k ids of highest logit (an equal logit ranks the lower id
first; k = 1 is greedy). Each weighs table[highest - logit], the table being
round(WEIGHT_ONE * exp(-d * scale / temperature)) for d = 0..255 logit steps
(`weight_table`, which the generation file carries to the firmware). One
xorshift32 draw x per sampled token picks r = (x * total) >> 32, and the
candidate whose span of the cumulative weights, in id order, holds r.
"""

from __future__ import annotations

import dataclasses
import math
from typing import List, Sequence

import numpy as np

WEIGHT_TABLE_SIZE = 256  # every difference of two int8 values
WEIGHT_ONE = 1 << 16  # the weight of the highest logit
MASK32 = 0xFFFFFFFF


class XorShift32:
    """Marsaglia's xorshift32 (shifts 13, 17, 5), "Xorshift RNGs", 2003."""

    def __init__(self, seed: int) -> None:
        if not 0 < seed <= MASK32:
            raise ValueError(f"seed {seed} is not in 1 .. 2^32 - 1 (xorshift32 stays 0 from 0)")
        self.state = seed

    def next(self) -> int:
        x = self.state
        x ^= (x << 13) & MASK32
        x ^= x >> 17
        x ^= (x << 5) & MASK32
        self.state = x
        return x


def weight_table(scale: float, temperature: float = 1.0) -> np.ndarray:
    """int32 [WEIGHT_TABLE_SIZE]: the weight of a logit d quantization steps below the highest."""
    if not (scale > 0 and temperature > 0):
        raise ValueError(f"scale {scale} and temperature {temperature} must be positive")
    return np.array(
        [round(WEIGHT_ONE * math.exp(-d * scale / temperature)) for d in range(WEIGHT_TABLE_SIZE)], np.int32
    )


def candidates(logits: Sequence[int], k: int) -> List[int]:
    """The k ids of highest logit, ties to the lower id, in id order."""
    if not 1 <= k <= len(logits):
        raise ValueError(f"top-k of {k} needs 1 <= k <= {len(logits)} (the vocabulary)")
    ranked = sorted(range(len(logits)), key=lambda i: (-int(logits[i]), i))
    return sorted(ranked[:k])


def sample(logits: Sequence[int], k: int, table: Sequence[int], rng: XorShift32) -> int:
    """The id the rule draws from int8 `logits`; advances `rng` by one."""
    chosen = candidates(logits, k)
    highest = max(int(v) for v in logits)
    weights = [int(table[highest - int(logits[i])]) for i in chosen]
    r = (rng.next() * sum(weights)) >> 32
    for i, w in zip(chosen, weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("r is below the total weight")


@dataclasses.dataclass(frozen=True)
class Sampling:
    """A generation's sampler: top-k (1 is greedy), seed and weight table, as the
    generation file's last two records (u85_generation.py) carry them."""

    top_k: int = 1
    seed: int = 1
    table: np.ndarray = dataclasses.field(default_factory=lambda: weight_table(1.0))

    def records(self) -> List[np.ndarray]:
        seed = np.array([self.seed], np.uint32).view(np.int32)[0]  # the firmware reads uint32
        return [np.array([self.top_k, seed], np.int32), np.asarray(self.table, np.int32)]

    @staticmethod
    def from_records(k_seed: np.ndarray, table: np.ndarray) -> "Sampling":
        seed = int(np.asarray(k_seed[1:2], np.int32).view(np.uint32)[0])
        return Sampling(int(k_seed[0]), seed, np.asarray(table, np.int32))
