"""The compiled program on labelled evaluation samples, one host-runner run
each (//sim/host:host_runner: our runtime with the functional NPU model,
bit-exact with the QEMU device): the samples in the program's input layout
and quantization, and its outputs.

The summary keeps only per-stage counts (python/ethosu_sdk/evaluate); these
keep each sample's first output, so the report ranks the classes itself."""

from __future__ import annotations

import os
import subprocess
import tempfile
from typing import Any, Sequence

import numpy as np
import torch

from ethosu_sdk.aot.options import Input, Summary
from ethosu_sdk.evaluate.dataset import Sample, load
from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors import StoredTensor, encode

HOST_RUNNER_TIMEOUT_S = 60.0  # one small inference; a hang becomes an error line
FORMAT_VERSION = 1


class ScoresError(Exception):
    """A sample or the program cannot be scored as given."""


def load_samples(eval_dir: str, summary: Summary) -> list[Sample]:
    """The directory's samples in name order, checked as the evaluation
    checks them (python/ethosu_sdk/evaluate/dataset.py)."""
    example_inputs = tuple(torch.zeros(spec.shape) for spec in summary.inputs)
    classes = int(np.prod(summary.outputs[0].shape))
    return load(eval_dir, example_inputs, classes)


def program_inputs(sample: Sample, summary_inputs: Sequence[Input]) -> bytes:
    """The sample's inputs as a .tensors file, in the program's memory order
    and with its input quantization, as the firmware takes them."""
    return encode(
        [
            StoredTensor(
                np.ascontiguousarray(t.numpy().transpose(spec.dim_order)),
                spec.scale,
                spec.zero_point,
            )
            for t, spec in zip(sample.inputs, summary_inputs)
        ]
    )


def run_host(host_runner: str, pte: str, input_path: str, name: str) -> protocol.Run:
    """One inference on the host runner; any failure is one ScoresError line."""
    argv = [host_runner, f"--pte={pte}", f"--input={input_path}"]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=HOST_RUNNER_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise ScoresError(f"sample {name}: the host runner did not finish in {HOST_RUNNER_TIMEOUT_S:.0f} s") from None
    except OSError as e:
        raise ScoresError(f"cannot run the host runner {host_runner!r}: {e.strerror or e}") from e
    run = protocol.parse(proc.stdout)
    if proc.returncode != 0 or run.errors or 0 not in run.outputs:
        why = (run.errors or [proc.stderr.strip() or f"exit status {proc.returncode}"])[0]
        raise ScoresError(f"sample {name}: the program failed on the host runner: {why}")
    return run


def score(pte: str, summary: Summary, samples: Sequence[Sample], host_runner: str) -> dict[str, Any]:
    """Every sample's label and the program's first output (as the runner
    prints it: dequantized where the program dequantizes)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="program-scores-") as work:
        input_path = os.path.join(work, "input.tensors")
        for sample in samples:
            with open(input_path, "wb") as f:
                f.write(program_inputs(sample, summary.inputs))
            run = run_host(host_runner, pte, input_path, sample.name)
            scores = run.outputs[0].reshape(-1).astype(np.float64)
            rows.append({"name": sample.name, "label": sample.label, "scores": scores.tolist()})
    return {"format_version": FORMAT_VERSION, "stage": "program", "samples": rows}
