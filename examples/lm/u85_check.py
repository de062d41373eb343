"""Runs examples/lm's U85 generation firmware on QEMU's corstone-320 and
checks it against PyTorch's quantized greedy generation.

    u85_check --elf=F.elf --summary=M.summary.json --expected=M.expected.tensors \\
        --generation=G.tensors --calibration=C1.tensors,C2.tensors,...

The firmware runs the loop (u85_main.cc); this prints the prompt, the
generated text and per token the Ethos-U85's PMU cycles, Vela's estimate,
the CPU instructions of the call (QEMU -icount: one instruction a
nanosecond of board time) and the KV-cache bytes written. The reference is
U85Step quantized as the SDK quantized it (the SDK's own export, workaround
and PT2E functions, the same calibration samples; its output on the
model's example input must equal the SDK's expected output), run over the
firmware's tokens: every step's int8 logits must be within one quantization
step of it, and where the two argmaxes differ, the reference's logit of the
firmware's token must be within one step of its largest (a tie; both sides
go on from the firmware's token). Exit status 0 only then.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import time
from typing import Dict, List, Sequence

import numpy as np
import torch
from absl import app, flags
from tiny_lm import decode
from u85_step import build, run

from ethosu_sdk.runner import boards, protocol, simulate
from ethosu_sdk.tensors.tensor_file import read_tensor_file

flags.DEFINE_string("elf", None, "The generation firmware (u85_main.cc).")
flags.DEFINE_string("board", "corstone320", "Board to simulate.")
flags.DEFINE_string("summary", None, "The U85 model's summary.")
flags.DEFINE_string("expected", None, "The U85 model's expected output for its example input.")
flags.DEFINE_string("generation", None, "The generation file the firmware embeds (u85_generation.py).")
flags.DEFINE_list("calibration", [], "The model's calibration samples, in its order.")
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
    npu_cycles: int
    npu_jobs: int
    instructions: int
    kv_written: int
    kv_cache: int


def parse_tokens(output: str) -> List[Token]:
    """The TOKEN records in order (u85_main.cc's PrintToken)."""
    tokens = []
    for match in _TOKEN.finditer(output):
        try:
            f: Dict[str, int] = {k: int(v) for k, v in (p.split("=", 1) for p in match.group(1).split())}
            instructions = f["ticks"] * 10**9 // f["ticks_per_second"]
            tokens.append(
                Token(
                    f["call"], f["token"], f["argmax"], f["npu_cycles"], f["npu_jobs"],
                    instructions, f["kv_written"], f["kv_cache"],
                )
            )  # fmt: skip
        except (KeyError, ValueError, ZeroDivisionError) as e:
            raise CheckError(f"malformed TOKEN record {match.group(0)!r}") from e
    if [t.call for t in tokens] != list(range(len(tokens))):
        raise CheckError("TOKEN records out of order")
    return tokens


def reference_step(calibration: Sequence[str]) -> torch.nn.Module:
    """U85Step quantized as the SDK's compile did (stage_quantize.py for an Ethos-U target)."""
    from executorch.backends.arm.ethosu import EthosUCompileSpec

    from ethosu_sdk.aot import calibration as sdk_calibration
    from ethosu_sdk.aot import export, quantization
    from ethosu_sdk.aot.targets import QuantMode
    from ethosu_sdk.aot.workarounds import vela_workarounds

    step, inputs = build()
    samples = sdk_calibration.calibration_samples(None, calibration, inputs).samples
    graph = export.export_for_quantization(step, inputs)
    vela_workarounds.avoid_unbind_matmul(graph, split_heads=False)
    return quantization.quantize(graph, EthosUCompileSpec("ethos-u85-256"), QuantMode.INT8, samples)


def quantized_logits(logits: torch.Tensor, scale: float, zero_point: int) -> np.ndarray:
    return torch.clamp(torch.round(logits / scale) + zero_point, -128, 127).to(torch.int8).numpy().reshape(-1)


def check_reference(reference: torch.nn.Module, summary: dict, expected: str) -> None:
    """The reference graph is the SDK's: its int8 logits for the example input are the model's expected ones."""
    _, inputs = build()
    with torch.no_grad():
        logits = reference(*inputs)[0]
    out = summary["outputs"][0]
    ours = quantized_logits(logits, out["scale"], out["zero_point"])
    theirs = read_tensor_file(expected)[0].data.reshape(-1)
    if not np.array_equal(ours, theirs):
        raise CheckError("the reference quantization differs from the SDK's (expected output of the example input)")


def compare(firmware: Dict[int, np.ndarray], tokens: List[Token], prompt: List[int], reference, out: dict) -> List[str]:
    """Per call: the firmware's logits against the reference's over the firmware's tokens; the notes on ties."""
    notes = []
    exact = total = 0
    sequence = [t.token for t in tokens]
    for call, (_, logits) in enumerate(run(reference, sequence)):
        theirs = quantized_logits(logits, out["scale"], out["zero_point"]).astype(np.int32)
        ours = firmware[call].reshape(-1).astype(np.int32)
        worst = int(np.abs(ours - theirs).max())
        exact, total = exact + int((ours == theirs).sum()), total + ours.size
        if worst > 1:
            raise CheckError(f"call {call}: logits differ by {worst} quantization steps from PyTorch's")
        fw, ref = tokens[call].argmax, int(np.argmax(theirs))
        if int(np.argmax(ours)) != fw:
            raise CheckError(f"call {call}: the firmware fed back {fw}, not the argmax of its logits")
        if fw != ref and call >= len(prompt) - 1:
            if theirs[ref] - theirs[fw] > 1:
                raise CheckError(f"call {call}: the firmware chose {decode([fw])!r}, PyTorch {decode([ref])!r}")
            notes.append(
                f"call {call}: tie within one step ({decode([fw])!r} / {decode([ref])!r}), going on from the firmware's"
            )
    notes.append(f"{exact} of {total} logits bit-exact with PyTorch's quantized graph, the rest within one step")
    return notes


def report(prompt: List[int], tokens: List[Token], summary: dict, seconds: float) -> None:
    generated = [t.argmax for t in tokens[len(prompt) - 1 :]]
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


def main(argv: List[str]) -> int:
    del argv
    with open(FLAGS.summary) as f:
        summary = json.load(f)
    prompt = [int(i) for i in read_tensor_file(FLAGS.generation)[0].data]
    board = boards.get(FLAGS.board, False)
    command = board.command(
        boards.RunOptions(elf=FLAGS.elf, npu=boards.parse_npu("ethos-u85-256"), timeout=FLAGS.timeout,
                          simulator=None, npu_library=boards.default_npu_library())
    )  # fmt: skip
    start = time.monotonic()
    _, output = simulate.run(command, FLAGS.timeout, echo=None)
    seconds = time.monotonic() - start
    try:
        parsed = protocol.parse(output)
        if parsed.result != "DONE":
            raise CheckError("; ".join(parsed.errors) or f"the firmware did not finish:\n{output[-2000:]}")
        tokens = parse_tokens(output)
        generated = len(tokens) - len(prompt) + 1
        if generated < FLAGS.min_tokens:
            raise CheckError(f"{generated} tokens generated, fewer than {FLAGS.min_tokens}")
        report(prompt, tokens, summary, seconds)
        reference = reference_step(FLAGS.calibration)
        check_reference(reference, summary, FLAGS.expected)
        for note in compare(parsed.outputs, tokens, prompt, reference, summary["outputs"][0]):
            print(note)
    except (CheckError, protocol.ProtocolError) as e:
        print(f"u85_check: error: {e}", file=sys.stderr)
        return 1
    print(f"PASS: {generated} tokens, every step's logits within one step of PyTorch's quantized graph")
    return 0


if __name__ == "__main__":
    flags.mark_flags_as_required(["elf", "summary", "expected", "generation"])
    app.run(main)
