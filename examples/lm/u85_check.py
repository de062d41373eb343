"""Runs examples/lm's U85 generation firmware on QEMU's corstone-320 and
checks it against PyTorch's quantized generation.

    u85_check --elf=F.elf --summary=M.summary.json --expected=M.expected.tensors \\
        --generation=G.tensors --calibration=C1.tensors,C2.tensors,... [--perplexity=P.json]

The firmware runs the loop (u85_main.cc); this streams each token as its
record arrives from QEMU, then prints the prompt, the generated text, per
token the Ethos-U85's PMU cycles, Vela's estimate, the CPU instructions of
the call (QEMU -icount: one instruction a nanosecond of board time) and the
KV-cache bytes written, and the held-out perplexity per stage of the step
(float, int8, A16W8: the build's perplexity.py action).

The reference is U85Step quantized as the SDK quantized it
(u85_reference.py, proven the compiled model's quantization), run over the
firmware's tokens: every step's int8 logits must be within one
quantization step of it. The generation's sampler (top_k_sampler.py; top-k
1 is greedy) draws each token from the firmware's logits exactly as the
firmware did, and from the reference's logits with the same seed. Greedy:
where the two argmaxes differ, the reference's logit of the firmware's
token must be within one step of its largest (a tie). Top-k: a different
draw is reported (it can only come from a one-step logit difference).
Either way both sides go on from the firmware's token. Exit status 0 only
then.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import time
from typing import Dict, List, Optional

import numpy as np
from absl import app, flags
from tiny_lm import decode
from top_k_sampler import Sampling, XorShift32, sample
from u85_reference import ReferenceError, check_same_as_compiled, quantized_logits, quantized_step
from u85_step import run

from ethosu_sdk.runner import boards, protocol, simulate
from ethosu_sdk.tensors.tensor_file import read_tensor_file

flags.DEFINE_string("elf", None, "The generation firmware (u85_main.cc).")
flags.DEFINE_string("board", "corstone320", "Board to simulate.")
flags.DEFINE_string("npu", "ethos-u85-256", "The board's Ethos-U the firmware's model was compiled for.")
flags.DEFINE_string("summary", None, "The U85 model's summary.")
flags.DEFINE_string("expected", None, "The U85 model's expected output for its example input.")
flags.DEFINE_string("generation", None, "The generation file the firmware embeds (u85_generation.py).")
flags.DEFINE_list("calibration", [], "The model's calibration samples, in its order.")
flags.DEFINE_string("perplexity", None, "The step's held-out perplexity per stage (perplexity.py --out).")
flags.DEFINE_integer("min_tokens", 64, "Fail unless the firmware generates at least this many tokens.")
flags.DEFINE_float("timeout", 600.0, "Seconds QEMU may run.")
FLAGS = flags.FLAGS

_TOKEN = re.compile(r"^ESDK TOKEN (.*)$", re.MULTILINE)


class CheckError(Exception):
    pass


@dataclasses.dataclass(frozen=True)
class Token:
    call: int
    token: int
    argmax: int
    next: int
    npu_cycles: int
    npu_jobs: int
    instructions: int
    kv_written: int
    kv_cache: int


def parse_token(record: str) -> Token:
    """One TOKEN record's fields (u85_main.cc's PrintToken)."""
    try:
        f: Dict[str, int] = {k: int(v) for k, v in (p.split("=", 1) for p in record.split())}
        instructions = f["ticks"] * 10**9 // f["ticks_per_second"]
        return Token(
            f["call"], f["token"], f["argmax"], f["next"], f["npu_cycles"], f["npu_jobs"],
            instructions, f["kv_written"], f["kv_cache"],
        )  # fmt: skip
    except (KeyError, ValueError, ZeroDivisionError) as e:
        raise CheckError(f"malformed TOKEN record {record!r}") from e


def parse_tokens(output: str) -> List[Token]:
    """The TOKEN records in order."""
    tokens = [parse_token(m.group(1)) for m in _TOKEN.finditer(output)]
    if [t.call for t in tokens] != list(range(len(tokens))):
        raise CheckError("TOKEN records out of order")
    return tokens


class TokenStream:
    """The simulator's console callback: prints each generated token as its record arrives."""

    def __init__(self, prompt: List[int], write=sys.stdout.write) -> None:
        self.prompt, self.write = prompt, write
        self.start = time.monotonic()
        self.arrivals: List[float] = []  # host seconds from the start, per generated token

    def __call__(self, line: str) -> None:
        match = _TOKEN.match(line.rstrip("\n"))
        if not match:
            return
        try:
            token = parse_token(match.group(1))
        except CheckError:
            return  # parse_tokens reports it once the run is over
        if token.call == 0:
            self.write(f"streaming: {decode(self.prompt)!r} + ")
        if token.call + 1 >= len(self.prompt):
            self.arrivals.append(time.monotonic() - self.start)
            self.write(decode([token.next]))

    def summary(self, seconds: float) -> str:
        if not self.arrivals:
            return "no generated token arrived"
        return (
            f"streamed {len(self.arrivals)} tokens as QEMU printed them: the first after "
            f"{self.arrivals[0]:.1f} s, the last after {self.arrivals[-1]:.1f} s of a {seconds:.1f} s run"
        )


@dataclasses.dataclass
class Sampler:
    """The generation's sampler over both sides' logits, one seed, one draw a generated token each."""

    top_k: int
    seed: int
    table: np.ndarray
    firmware_rng: XorShift32
    reference_rng: XorShift32

    @staticmethod
    def of(records: list) -> "Sampler":
        """From the generation file's records (u85_generation.py): the last two are the sampling."""
        s = Sampling.from_records(records[-2].data, records[-1].data)
        return Sampler(s.top_k, s.seed, s.table, XorShift32(s.seed), XorShift32(s.seed))

    def describe(self) -> str:
        return "greedy" if self.top_k == 1 else f"top-{self.top_k} sampling, seed {self.seed}"


def check_choice(call: int, t: Token, ours: np.ndarray, theirs: np.ndarray, sampler: Sampler) -> Optional[str]:
    """The firmware's token of a generated call: the sampler's draw from its logits; a note where PyTorch's differs."""
    mine = sample(ours, sampler.top_k, sampler.table, sampler.firmware_rng)
    ref = sample(theirs, sampler.top_k, sampler.table, sampler.reference_rng)
    if mine != t.next:
        raise CheckError(f"call {call}: the firmware fed back {t.next}, the sampler draws {mine} from its logits")
    if ref == t.next:
        return None
    if sampler.top_k == 1:
        if theirs[ref] - theirs[t.next] > 1:
            raise CheckError(f"call {call}: the firmware chose {decode([t.next])!r}, PyTorch {decode([ref])!r}")
        what = "tie within one step"
    else:
        what = "the draw differs through a one-step logit difference"
    return f"call {call}: {what} ({decode([t.next])!r} / {decode([ref])!r}), going on from the firmware's"


def compare(
    firmware: Dict[int, np.ndarray], tokens: List[Token], prompt: List[int], reference, out: dict, sampler: Sampler
) -> List[str]:
    """Per call: the firmware's logits against the reference's over the firmware's tokens; the notes on ties."""
    notes = []
    exact = total = same = 0
    sequence = [t.token for t in tokens]
    for call, (_, logits) in enumerate(run(reference, sequence)):
        theirs = quantized_logits(logits, out["scale"], out["zero_point"]).astype(np.int32)
        ours = firmware[call].reshape(-1).astype(np.int32)
        worst = int(np.abs(ours - theirs).max())
        exact, total = exact + int((ours == theirs).sum()), total + ours.size
        if worst > 1:
            raise CheckError(f"call {call}: logits differ by {worst} quantization steps from PyTorch's")
        t = tokens[call]
        if int(np.argmax(ours)) != t.argmax:
            raise CheckError(f"call {call}: the firmware's argmax is {t.argmax}, not that of its logits")
        if call < len(prompt) - 1:
            if t.next != prompt[call + 1]:
                raise CheckError(f"call {call}: the firmware fed {t.next}, not the prompt's {prompt[call + 1]}")
            continue
        note = check_choice(call, t, ours, theirs, sampler)
        same += note is None
        notes += [note] if note else []
    generated = len(tokens) - len(prompt) + 1
    notes.append(
        f"{same} of {generated} generated tokens identical to PyTorch's quantized graph ({sampler.describe()})"
    )
    notes.append(f"{exact} of {total} logits bit-exact with PyTorch's quantized graph, the rest within one step")
    return notes


def perplexity_lines(path: str) -> List[str]:
    with open(path) as f:
        p = json.load(f)
    return [
        f"held-out perplexity of the step per character (first {p['characters']} characters of held_out.txt, "
        "perplexity.py at build time; int8 is the firmware's quantization):",
        f"  float {p['float']:.3f}   int8 {p['int8']:.3f}   A16W8 {p['a16w8']:.3f}",
    ]


def report(prompt: List[int], tokens: List[Token], summary: dict, seconds: float) -> None:
    generated = [t.next for t in tokens[len(prompt) - 1 :]]
    vela = summary.get("vela_total", {})
    estimate = vela.get("npu_cycles")
    print(f"prompt: {decode(prompt)!r}")
    print(f"generated ({len(generated)} tokens): {decode(generated)!r}")
    print(f"Vela's estimate per call: {estimate} NPU cycles; QEMU run {seconds:.1f} s host time")
    print("call  token  NPU cycles (PMU)  NPU jobs  CPU instructions  KV bytes written / cache")
    for t in tokens:
        print(
            f"{t.call:4d}  {decode([t.token])!r:>5}  {t.npu_cycles:16d}  {t.npu_jobs:8d}  "
            f"{t.instructions:16d}  {t.kv_written:5d} / {t.kv_cache}"
        )
    n = len(tokens)
    print(
        f"mean per call: {sum(t.npu_cycles for t in tokens) / n:.0f} NPU cycles, "
        f"{sum(t.instructions for t in tokens) / n:.0f} CPU instructions"
    )


def simulate_streaming(prompt: List[int]) -> tuple[str, float, TokenStream]:
    board = boards.get(FLAGS.board, False)
    command = board.command(
        boards.RunOptions(elf=FLAGS.elf, npu=boards.parse_npu(FLAGS.npu), timeout=FLAGS.timeout,
                          simulator=None, npu_library=boards.default_npu_library())
    )  # fmt: skip
    stream = TokenStream(prompt)
    _, output = simulate.run(command, FLAGS.timeout, echo=stream)
    seconds = time.monotonic() - stream.start
    print()
    return output, seconds, stream


def main(argv: List[str]) -> int:
    del argv
    with open(FLAGS.summary) as f:
        summary = json.load(f)
    records = read_tensor_file(FLAGS.generation)
    prompt = [int(i) for i in records[0].data]
    sampler = Sampler.of(records)
    output, seconds, stream = simulate_streaming(prompt)
    try:
        parsed = protocol.parse(output)
        if parsed.result != "DONE":
            raise CheckError("; ".join(parsed.errors) or f"the firmware did not finish:\n{output[-2000:]}")
        tokens = parse_tokens(output)
        generated = len(tokens) - len(prompt) + 1
        if generated < FLAGS.min_tokens:
            raise CheckError(f"{generated} tokens generated, fewer than {FLAGS.min_tokens}")
        print(stream.summary(seconds))
        report(prompt, tokens, summary, seconds)
        for line in perplexity_lines(FLAGS.perplexity) if FLAGS.perplexity else []:
            print(line)
        reference = quantized_step(FLAGS.calibration)
        check_same_as_compiled(reference, summary, FLAGS.expected)
        for note in compare(parsed.outputs, tokens, prompt, reference, summary["outputs"][0], sampler):
            print(note)
    except (CheckError, ReferenceError, protocol.ProtocolError) as e:
        print(f"u85_check: error: {e}", file=sys.stderr)
        return 1
    print(f"PASS: {generated} tokens, every step's logits within one step of PyTorch's quantized graph")
    return 0


if __name__ == "__main__":
    flags.mark_flags_as_required(["elf", "summary", "expected", "generation"])
    app.run(main)
