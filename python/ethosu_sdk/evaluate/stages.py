"""Top-1 (and top-5 where the model has more than five classes) of one
labelled data set at every stage of the flow: the float model, the PT2E
quantized graph, and the compiled program on the host runner
(//sim/host:host_runner: our runtime with the functional NPU model, which is
bit-exact with the QEMU device, so its answers are the firmware's)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from typing import Callable, Optional, Sequence

import numpy as np
import torch

from ethosu_sdk.evaluate import layer_error
from ethosu_sdk.evaluate.dataset import EvaluationError, Sample, load
from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors import StoredTensor, encode

HOST_RUNNER_TIMEOUT_S = 60.0  # one small inference; a hang becomes an error line
TOP_K = 5
# With five classes or fewer every label is among the five best: top-5 says
# nothing there, so it is measured only above that.
TOP5_MIN_CLASSES = TOP_K + 1


def _as_tuple(value) -> tuple[torch.Tensor, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def best_classes(scores: np.ndarray) -> list[int]:
    """The TOP_K classes of one output, best first; ties keep the lower index
    first, as argmax does (so the first is the top-1 prediction)."""
    flat = np.asarray(scores, dtype=np.float64).reshape(-1)
    return [int(c) for c in np.argsort(-flat, kind="stable")[:TOP_K]]


def top1(rankings: Sequence[Sequence[int]], samples: Sequence[Sample], classes: int) -> dict[str, object]:
    """A stage's figures from its best classes per sample (best_classes):
    top-1, and top-5 where the model has TOP5_MIN_CLASSES classes or more."""
    correct = sum(int(r[0] == s.label) for r, s in zip(rankings, samples))
    figures: dict[str, object] = {"correct": correct, "samples": len(samples), "top1": correct / len(samples)}
    if classes >= TOP5_MIN_CLASSES:
        correct5 = sum(int(s.label in r[:TOP_K]) for r, s in zip(rankings, samples))
        figures.update({"top5_correct": correct5, "top5": correct5 / len(samples)})
    return figures


def module_predictions(module: Callable, samples: Sequence[Sample]) -> list[list[int]]:
    """The classes each sample's first output ranks best (best_classes)."""
    with torch.no_grad():
        return [best_classes(_as_tuple(module(*s.inputs))[0].detach().double().numpy()) for s in samples]


def program_predictions(
    host_runner: str,
    pte_path: str,
    samples: Sequence[Sample],
    input_qparams: Sequence[tuple[float, int]],
    dim_orders: Sequence[Sequence[int]],
    work: str,
) -> list[list[int]]:
    """The classes the compiled program ranks best for each sample, run by the
    host runner (inputs in the program's memory order, as the firmware takes them)."""
    predictions = []
    input_path = os.path.join(work, "input.tensors")
    for sample in samples:
        stored = [
            StoredTensor(np.ascontiguousarray(t.numpy().transpose(order)), s, z)
            for t, (s, z), order in zip(sample.inputs, input_qparams, dim_orders)
        ]
        with open(input_path, "wb") as f:
            f.write(encode(stored))
        argv = [host_runner, f"--pte={pte_path}", f"--input={input_path}"]
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=HOST_RUNNER_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise EvaluationError(
                f"evaluation sample {sample.name}: the host runner did not finish in {HOST_RUNNER_TIMEOUT_S:.0f} s"
            ) from None
        except OSError as e:
            raise EvaluationError(f"cannot run the host runner {host_runner!r}: {e.strerror or e}") from e
        run = protocol.parse(proc.stdout)
        if proc.returncode != 0 or run.errors or 0 not in run.outputs:
            why = (run.errors or [proc.stderr.strip() or f"exit status {proc.returncode}"])[0]
            raise EvaluationError(f"evaluation sample {sample.name}: the program failed on the host runner: {why}")
        predictions.append(best_classes(run.outputs[0]))
    return predictions


def evaluate(
    directory: str,
    float_module: torch.nn.Module,
    quantized: Optional[Callable],
    example_inputs: tuple[torch.Tensor, ...],
    classes: int,
    pte: bytes,
    input_qparams: Sequence[tuple[float, int]],
    dim_orders: Sequence[Sequence[int]],
    host_runner: Optional[str],
    work_dir: str,
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, object]:
    """The summary's `accuracy` entry: top-1 (and top-5, top1()) per stage on `directory`
    (dataset.py). The program stage needs `host_runner`; without one it is
    null and `program_note` says why. `layers`: of a quantized compilation,
    each quantized activation's SQNR by PyTorch module, worst first
    (layer_error.py)."""
    samples = load(directory, example_inputs, classes)
    progress(f"evaluating on {len(samples)} labelled sample(s) from {os.path.basename(os.path.normpath(directory))}")
    stages: dict[str, object] = {"float": top1(module_predictions(float_module, samples), samples, classes)}
    layers = None
    if quantized is not None:
        stages["quantized"] = top1(module_predictions(quantized, samples), samples, classes)
        layers = layer_error.layer_sqnr(float_module, quantized, [s.inputs for s in samples])
    note = None
    if host_runner:
        with tempfile.TemporaryDirectory(prefix="eval-", dir=work_dir) as work:
            pte_path = os.path.join(work, "program.pte")
            with open(pte_path, "wb") as f:
                f.write(pte)
            stages["program"] = top1(
                program_predictions(host_runner, pte_path, samples, input_qparams, dim_orders, work),
                samples,
                classes,
            )
    else:
        note = "not run: no host runner (--host_runner=PATH, //sim/host:host_runner)"
    return {
        "source": os.path.basename(os.path.normpath(directory)),
        "samples": len(samples),
        "classes": classes,
        "stages": stages,
        "program_note": note,
        "layers": layers,
    }
