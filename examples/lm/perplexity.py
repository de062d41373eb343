"""Held-out perplexity of TinyLm per stage: float, int8 (EthosUQuantizer's
symmetric config) and A16W8 (16-bit activations, 8-bit weights), each
stage PyTorch's PT2E-quantized graph of the whole-sequence model, calibrated
on training text, evaluated on examples/lm/held_out.txt.

    python examples/lm/perplexity.py [--variant=u85_step]

`--variant=u85_step`: the step the Ethos-U85 runs (u85_step.py), one call
per character as generation makes them, each stage quantized as the SDK
quantizes it for the U85 (its quantization functions, the calibration
samples of u85_calibration.py).
"""

from __future__ import annotations

import os
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

HERE = os.path.dirname(os.path.abspath(__file__))
flags.DEFINE_integer("calibration_windows", 16, "Training windows of CACHE_LENGTH for PT2E calibration.")
flags.DEFINE_enum("variant", "sequence", ["sequence", "u85_step"], "The whole-sequence model or the U85 step.")
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


def u85_step_stages(lm: TinyLm) -> Dict[str, Callable[..., torch.Tensor]]:
    from executorch.backends.arm.ethosu import EthosUCompileSpec
    from u85_calibration import samples
    from u85_step import U85Step, build

    from ethosu_sdk.aot import export, quantization
    from ethosu_sdk.aot.targets import QuantMode
    from ethosu_sdk.aot.workarounds import vela_workarounds

    step, inputs = build()
    with open(os.path.join(HERE, "calibration.txt")) as f:
        calibration = [
            tuple(torch.from_numpy(a) for a in s) for s in samples(f.read(), os.path.join(HERE, "tiny_lm.pt"))
        ]

    def quantized_step(mode: QuantMode) -> torch.nn.Module:
        graph = export.export_for_quantization(step, inputs)
        vela_workarounds.avoid_unbind_matmul(graph, split_heads=False)
        return quantization.quantize(graph, EthosUCompileSpec("ethos-u85-256"), mode, calibration)

    return {
        "float": U85Step(lm).eval(),
        "int8": quantized_step(QuantMode.INT8),
        "a16w8": quantized_step(QuantMode.A16W8),
    }


def main(argv: List[str]) -> None:
    del argv
    torch.set_num_threads(1)
    lm = TinyLm()
    lm.load_state_dict(torch.load(os.path.join(HERE, "tiny_lm.pt"), weights_only=True))
    lm.eval()
    with open(os.path.join(HERE, "held_out.txt")) as f:
        held_out = windows(encode(f.read()))
    tokens = len(held_out) * CACHE_LENGTH
    if FLAGS.variant == "u85_step":
        for name, step in u85_step_stages(lm).items():
            print(
                f"u85_step {name}: held-out perplexity {step_perplexity(step, held_out):.3f} over {tokens} characters"
            )
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
