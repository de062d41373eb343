"""The top-k sampler: the firmware's C++ (top_k_sampler_main, the rule of
top_k_sampler.h) draws the same ids as top_k_sampler.py, its candidates are
torch.topk's values, its draws follow torch.softmax over them, and the
generator refuses a top-k outside the vocabulary in one line."""

from __future__ import annotations

import os
import random
import subprocess
from typing import List, Tuple

import numpy as np
import pytest
import torch
from tiny_lm import VOCABULARY
from top_k_sampler import WEIGHT_ONE, Sampling, XorShift32, candidates, sample, weight_table

SAMPLER = os.environ.get("TOP_K_SAMPLER", "")  # the C++ sampler's host binary (BUILD.bazel)

Case = Tuple[int, int, List[int]]  # k, seed, logits


def random_cases(rng: random.Random, count: int) -> List[Case]:
    """Vocabulary-sized and smaller rows, narrow ranges for many equal logits, every k from 1 to n."""
    cases = []
    for _ in range(count):
        n = rng.choice([1, 2, 5, 17, len(VOCABULARY)])
        low = rng.choice([-128, -20, 0, 120])
        high = min(127, low + rng.choice([0, 1, 3, 40, 255]))
        logits = [rng.randint(low, high) for _ in range(n)]
        cases.append((rng.randint(1, n), rng.randint(1, 2**32 - 1), logits))
    return cases


def python_draws(case: Case, table: np.ndarray, draws: int) -> List[int]:
    k, seed, logits = case
    rng = XorShift32(seed)
    return [sample(logits, k, table, rng) for _ in range(draws)]


@pytest.mark.parametrize("scale", [0.02, 0.1357, 0.5])
def test_firmware_sampler_draws_the_python_ones(scale: float) -> None:
    table = weight_table(scale)
    cases = random_cases(random.Random(scale), 200)
    draws = 6
    text = " ".join(str(int(w)) for w in table) + "\n"
    text += "".join(f"{k} {seed} {draws} {len(row)} {' '.join(map(str, row))}\n" for k, seed, row in cases)
    out = subprocess.run([SAMPLER], input=text, capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(cases)
    for case, line in zip(cases, out):
        assert [int(i) for i in line.split()] == python_draws(case, table, draws), case


def test_candidates_are_torch_topk_values() -> None:
    rng = random.Random(1)
    for k, _, logits in random_cases(rng, 300):
        chosen = candidates(logits, k)
        top = torch.topk(torch.tensor(logits), k).values.tolist()
        assert sorted((logits[i] for i in chosen), reverse=True) == top
        # Of the logits equal to the cutoff, the lowest ids are in.
        cutoff = min(logits[i] for i in chosen)
        tied = [i for i, v in enumerate(logits) if v == cutoff]
        assert [i for i in chosen if logits[i] == cutoff] == tied[: len([i for i in chosen if logits[i] == cutoff])]


def test_draws_follow_softmax_of_the_top_k() -> None:
    scale, k, draws = 0.1, 5, 40000
    logits = [3, -40, 17, 9, 17, -2, 30, 11]
    chosen = candidates(logits, k)
    expected = torch.softmax(torch.tensor([logits[i] * scale for i in chosen], dtype=torch.float64), 0)
    rng, table = XorShift32(7), weight_table(scale)
    seen = np.bincount([sample(logits, k, table, rng) for _ in range(draws)], minlength=len(logits))
    assert seen[[i for i in range(len(logits)) if i not in chosen]].sum() == 0
    for i, p in zip(chosen, expected.tolist()):
        assert abs(seen[i] - draws * p) <= 5 * (draws * p * (1 - p)) ** 0.5 + 1, (i, seen[i], draws * p)


def test_top_1_is_argmax_with_the_lowest_id() -> None:
    table = weight_table(0.1)
    for _, seed, logits in random_cases(random.Random(2), 200):
        assert sample(logits, 1, table, XorShift32(seed)) == int(np.argmax(logits))


def test_xorshift32_matches_marsaglia() -> None:
    # Marsaglia, "Xorshift RNGs" (2003): from 2463534242 the first value is 723471715.
    assert XorShift32(2463534242).next() == 723471715


def test_weight_table_and_records() -> None:
    table = weight_table(0.25)
    assert table[0] == WEIGHT_ONE and table[4] == round(WEIGHT_ONE * np.exp(-1.0))
    s = Sampling(8, 2**32 - 5, table)
    back = Sampling.from_records(*s.records())
    assert (back.top_k, back.seed) == (8, 2**32 - 5) and np.array_equal(back.table, table)


@pytest.mark.parametrize("k", [0, len(VOCABULARY) + 1])
def test_generator_refuses_a_bad_top_k(k: int) -> None:
    from u85_generation import generation

    qparams = [(1.0 / 127, 0)] * 7
    with pytest.raises(ValueError, match=rf"--top_k={k} is outside 1 \.\. {len(VOCABULARY)}"):
        generation([1, 2], 4, qparams, Sampling(k, 1, weight_table(0.1)))


def test_sampler_refuses_seed_zero_and_bad_k() -> None:
    with pytest.raises(ValueError, match="seed 0"):
        XorShift32(0)
    with pytest.raises(ValueError, match="needs 1 <= k <= 3"):
        candidates([1, 2, 3], 4)
