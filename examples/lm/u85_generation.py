"""The generation the U85 firmware runs (u85_main.cc): the prompt's token
ids, how many tokens to generate, each step input's int8 codes (of 0.0 and
of its marked value: 1 in a one-hot row, MASKED in the mask) from the
compiled program's input quantization (the model's summary), and the
sampler's top-k, seed and weight table (top_k_sampler.py, from the logits'
scale; top-k 1 is greedy).

    python examples/lm/u85_generation.py --summary=M.summary.json --out=G.tensors \\
        [--prompt="The import statement"] [--tokens=64] [--top_k=8 --seed=1]

A prompt the cache cannot hold with the tokens after it, or a top-k outside
1 .. the vocabulary, is one error line.
"""

from __future__ import annotations

import json
from typing import List, Sequence, Tuple

import numpy as np
from absl import app, flags
from tiny_lm import CACHE_LENGTH, VOCABULARY, encode
from top_k_sampler import MASK32, Sampling, weight_table
from u85_step import CACHE_NAMES, INPUT_NAMES, MASKED

from ethosu_sdk.tensors.tensor_file import encode as encode_tensors

PROMPT = "The import statement"
flags.DEFINE_string("summary", None, "The U85 model's summary (its input quantization).")
flags.DEFINE_string("prompt", PROMPT, "Prompt text (characters outside the vocabulary become '?').")
flags.DEFINE_integer("tokens", 64, "Tokens generated after the prompt.")
flags.DEFINE_string("out", None, "The generation tensor file to write.")
flags.DEFINE_integer("top_k", 1, "Sample among the k highest logits (1: greedy).")
flags.DEFINE_integer("seed", 1, "The sampler's xorshift32 seed, 1 .. 2^32 - 1.")
flags.DEFINE_float("temperature", 1.0, "The sampler's softmax temperature (its weight table).")
flags.DEFINE_list("prompt_ids", [], "Token ids instead of --prompt (tests: an id outside the vocabulary).")
flags.DEFINE_bool("unchecked", False, "Skip the length check (tests: the firmware's own check).")
FLAGS = flags.FLAGS

MARKED = {"token": 1.0, "position": 1.0, "mask": MASKED} | {name: 0.0 for name in CACHE_NAMES}


def quantize(value: float, scale: float, zero_point: int) -> int:
    return int(np.clip(np.round(value / scale) + zero_point, -128, 127))


def codes(input_qparams: Sequence[Tuple[float, int]]) -> np.ndarray:
    """[inputs, 2] int8: each input's code of 0.0 and of its marked value."""
    if len(input_qparams) != len(INPUT_NAMES):
        raise ValueError(f"the program has {len(input_qparams)} inputs, the step {len(INPUT_NAMES)}")
    rows = [(quantize(0.0, s, z), quantize(MARKED[name], s, z)) for name, (s, z) in zip(INPUT_NAMES, input_qparams)]
    return np.array(rows, dtype=np.int8)


def check_sampling(sampling: Sampling) -> None:
    if not 1 <= sampling.top_k <= len(VOCABULARY):
        raise ValueError(
            f"--top_k={sampling.top_k} is outside 1 .. {len(VOCABULARY)} (the vocabulary): "
            "use 1 for greedy, up to the vocabulary to sample"
        )
    if not 0 < sampling.seed <= MASK32:
        raise ValueError(f"--seed={sampling.seed} is outside 1 .. 2^32 - 1 (xorshift32 stays 0 from 0)")


def generation(
    prompt: List[int],
    tokens: int,
    input_qparams: Sequence[Tuple[float, int]],
    sampling: Sampling | None = None,
    checked: bool = True,
) -> bytes:
    sampling = sampling or Sampling()
    if checked:
        check_sampling(sampling)
    if checked and any(not 0 <= i < len(VOCABULARY) for i in prompt):
        raise ValueError(f"prompt ids {prompt} reach outside the vocabulary of {len(VOCABULARY)}")
    if checked and (tokens < 1 or len(prompt) < 1 or len(prompt) + tokens - 1 > CACHE_LENGTH):
        raise ValueError(
            f"a prompt of {len(prompt)} characters and {tokens} generated tokens need "
            f"{len(prompt) + tokens} positions; the cache holds {CACHE_LENGTH}: shorten the prompt or --tokens"
        )
    records = [np.array(prompt, np.int32), np.array([tokens], np.int32), codes(input_qparams)]
    return encode_tensors(records + sampling.records())


def input_qparams(summary: dict) -> List[Tuple[float, int]]:
    return [(float(i["scale"]), int(i["zero_point"])) for i in summary["inputs"]]


def main(argv: List[str]) -> None:
    del argv
    try:
        prompt = [int(i) for i in FLAGS.prompt_ids] if FLAGS.prompt_ids else encode(FLAGS.prompt)
        with open(FLAGS.summary) as f:
            summary = json.load(f)
        table = weight_table(float(summary["outputs"][0]["scale"]), FLAGS.temperature)
        sampling = Sampling(FLAGS.top_k, FLAGS.seed, table)
        blob = generation(prompt, FLAGS.tokens, input_qparams(summary), sampling, checked=not FLAGS.unchecked)
    except ValueError as e:
        raise SystemExit(f"u85_generation.py: error: {e}") from None
    with open(FLAGS.out, "wb") as f:
        f.write(blob)


if __name__ == "__main__":
    flags.mark_flags_as_required(["summary", "out"])
    app.run(main)
