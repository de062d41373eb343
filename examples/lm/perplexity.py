"""Held-out perplexity of TinyLm per stage: float, int8 (EthosUQuantizer's
symmetric config) and A16W8 (16-bit activations, 8-bit weights), each
stage PyTorch's PT2E-quantized graph of the whole-sequence model, calibrated
on training text, evaluated on examples/lm/held_out.txt.

    python examples/lm/perplexity.py [--variant=u85_step]

`--variant=u85_step`: the step the Ethos-U85 runs (u85_step.py), one call
per character as generation makes them, each stage quantized as the SDK
quantized `:u85_model` (u85_reference.py: its quantization functions and
the model's calibration sample files; the int8 stage is checked against the
compiled program's summary and expected output, so it is the firmware's
quantization, not a second one). The float step is checked against the
whole-sequence TinyLm on the same windows. The build action
(`:u85_perplexity_gen`) evaluates a prefix of the held-out text and writes
JSON for u85_check.py's report:

    python examples/lm/perplexity.py --variant=u85_step --calibration=C1,C2,... \\
        --summary=M.summary.json --expected=M.expected.tensors [--held_out_chars=N] [--out=P.json]
"""

from __future__ import annotations

import json
import os
import time
from typing import Callable, Dict, List

import torch
from absl import app, flags
from executorch.backends.arm.ethosu import EthosUCompileSpec
from executorch.backends.arm.quantizer import (
    EthosUQuantizer,
    get_symmetric_a16w8_quantization_config,
    get_symmetric_quantization_config,
)
from tiny_lm import CACHE_LENGTH, TinyLm, encode
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from train import read_topics, split  # also defines --corpus

from ethosu_sdk import host_numerics

HERE = os.path.dirname(os.path.abspath(__file__))
flags.DEFINE_integer("calibration_windows", 16, "Training windows of CACHE_LENGTH for PT2E calibration.")
flags.DEFINE_enum("variant", "sequence", ["sequence", "u85_step"], "The whole-sequence model or the U85 step.")
flags.DEFINE_list("calibration", [], "u85_step: the model's calibration sample files, in its order.")
flags.DEFINE_string("summary", None, "u85_step: the compiled model's summary (its quantization).")
flags.DEFINE_string("expected", None, "u85_step: the compiled model's expected output.")
flags.DEFINE_integer("held_out_chars", 0, "Evaluate this prefix of held_out.txt (0: all of it).")
flags.DEFINE_string("out", None, "u85_step: write the figures here as JSON.")
FLAGS = flags.FLAGS


def windows(ids: List[int]) -> List[torch.Tensor]:
    return [torch.tensor(ids[s : s + CACHE_LENGTH + 1]) for s in range(0, len(ids) - CACHE_LENGTH, CACHE_LENGTH)]


def perplexity(model: Callable[[torch.Tensor], torch.Tensor], data: List[torch.Tensor]) -> float:
    with torch.no_grad():
        losses = [torch.nn.functional.cross_entropy(model(w[None, :-1])[0], w[1:]) for w in data]
    return float(torch.exp(torch.stack(losses).mean()))


def quantized(lm: TinyLm, config: object, calibration: List[torch.Tensor]) -> torch.nn.Module:
    quantizer = EthosUQuantizer(EthosUCompileSpec("ethos-u85-256"))
    quantizer.set_global(config)
    graph = torch.export.export(lm, (calibration[0][None, :-1],)).module(check_guards=False)
    prepared = prepare_pt2e(graph, quantizer)
    with torch.no_grad():
        for w in calibration:
            prepared(w[None, :-1])
    return convert_pt2e(prepared)


def step_perplexity(step: Callable[..., torch.Tensor], data: List[torch.Tensor]) -> float:
    """Each window teacher-forced through the step, one call per character."""
    from u85_step import run

    losses = []
    for w in data:
        logits = torch.cat([lg.reshape(1, -1) for _, lg in run(step, w[:-1].tolist())])
        losses.append(torch.nn.functional.cross_entropy(logits, w[1:]))
    return float(torch.exp(torch.stack(losses).mean()))


def u85_step_stages() -> Dict[str, Callable[..., torch.Tensor]]:
    """The step per stage; int8 and A16W8 as u85_reference quantizes it, int8 checked as the compiled one."""
    from u85_reference import check_same_as_compiled, quantized_step
    from u85_step import build

    from ethosu_sdk.aot.targets import QuantMode

    int8 = quantized_step(FLAGS.calibration, QuantMode.INT8)
    with open(FLAGS.summary) as f:
        check_same_as_compiled(int8, json.load(f), FLAGS.expected)
    return {"float": build()[0], "int8": int8, "a16w8": quantized_step(FLAGS.calibration, QuantMode.A16W8)}


def u85_step_report(lm: TinyLm, held_out: List[torch.Tensor]) -> None:
    """Each stage's perplexity; the float step must be the whole-sequence model's."""
    figures: Dict[str, object] = {"characters": len(held_out) * CACHE_LENGTH}
    sequence = perplexity(lm, held_out)
    for name, step in u85_step_stages().items():
        start = time.process_time()
        figures[name] = step_perplexity(step, held_out)
        figures[f"{name}_cpu_seconds"] = round(time.process_time() - start, 1)
        print(f"u85_step {name}: held-out perplexity {figures[name]:.3f} over {figures['characters']} characters")
    if abs(figures["float"] - sequence) > 1e-3 * sequence:
        raise SystemExit(f"perplexity.py: error: the float step's {figures['float']} is not TinyLm's {sequence}")
    if FLAGS.out:
        with open(FLAGS.out, "w") as f:
            json.dump(figures, f, indent=1)


def main(argv: List[str]) -> None:
    del argv
    # Before torch computes anything: the int8 step must quantize as the SDK
    # compiled it, with the same kernels on every host (an AVX-512 host's
    # float perplexity first once moved the calibration's scales).
    host_numerics.pin_torch()
    torch.set_num_threads(1)
    lm = TinyLm()
    lm.load_state_dict(torch.load(os.path.join(HERE, "tiny_lm.pt"), weights_only=True))
    lm.eval()
    with open(os.path.join(HERE, "held_out.txt")) as f:
        text = f.read()
    held_out = windows(encode(text[: FLAGS.held_out_chars] if FLAGS.held_out_chars else text))
    tokens = len(held_out) * CACHE_LENGTH
    if FLAGS.variant == "u85_step":
        if not (FLAGS.calibration and FLAGS.summary and FLAGS.expected):
            raise SystemExit("perplexity.py: error: --variant=u85_step needs --calibration, --summary and --expected")
        u85_step_report(lm, held_out)
        return
    train_text, _ = split(read_topics(FLAGS.corpus))
    calibration = windows(encode(train_text))[::97][: FLAGS.calibration_windows]
    stages: Dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
        "float": lm,
        "int8": quantized(lm, get_symmetric_quantization_config(), calibration),
        "a16w8": quantized(lm, get_symmetric_a16w8_quantization_config(), calibration),
    }
    for name, model in stages.items():
        print(f"{name}: held-out perplexity {perplexity(model, held_out):.3f} over {tokens} characters")


if __name__ == "__main__":
    app.run(main)
