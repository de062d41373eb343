"""Per-inference latency of one CPU-only .pte: our runtime against
ExecuTorch's host runtime (`executorch.runtime`), same program and input.

Ours: the runner's TIME records (one Execute each, inputs already set).
ExecuTorch: `Method.execute` timed around the call from Python, so its
figure also holds the binding's per-call cost (tens of microseconds, small
against the model). Reports medians over --iterations runs after --warmup
runs, after checking that our outputs match ExecuTorch's (the runner's
COMPARE records, RESULT PASS).

    tools/bazel run -c opt //bench/latency:bench_latency -- --iterations=200
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from typing import List

import executorch.kernels.quantized  # noqa: F401
import numpy as np
import torch
from absl import app, flags
from executorch.runtime import Runtime
from make_programs import tensor_file

from ethosu_sdk.tensors.tensor_file import read_tensor_file

FLAGS = flags.FLAGS
flags.DEFINE_string("pte", "bench/latency/bench_cnn.pte", "Program to time.")
flags.DEFINE_string("input", "bench/latency/bench_cnn.tensors", "Its input tensor file.")
flags.DEFINE_string("runner", "bench/latency/bench_cnn_runner", "Our runner binary for it.")
flags.DEFINE_integer("iterations", 200, "Timed inferences per runtime.")
flags.DEFINE_integer("warmup", 10, "Untimed inferences first.")


def read_inputs(path: str) -> List[torch.Tensor]:
    tensors = read_tensor_file(path)
    assert all(t.data.dtype == np.float32 for t in tensors), "benchmark inputs are float32"
    return [torch.from_numpy(t.data.copy()) for t in tensors]


def time_executorch(inputs: List[torch.Tensor]) -> List[float]:
    method = Runtime.get().load_program(FLAGS.pte).load_method("forward")
    for _ in range(FLAGS.warmup):
        method.execute(inputs)
    samples = []
    for _ in range(FLAGS.iterations):
        start = time.perf_counter_ns()
        method.execute(inputs)
        samples.append((time.perf_counter_ns() - start) / 1e3)
    return samples


def time_ours(expected: str) -> List[float]:
    run = subprocess.run(
        [
            FLAGS.runner,
            f"--pte={FLAGS.pte}",
            f"--input={FLAGS.input}",
            f"--expected={expected}",
            f"--iterations={FLAGS.iterations + FLAGS.warmup}",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if "ESDK RESULT PASS" not in run.stdout:
        raise RuntimeError("our outputs differ from executorch.runtime's:\n" + run.stdout[-3000:])
    samples = []
    for line in run.stdout.splitlines():
        fields = line.split()
        if fields[:2] == ["ESDK", "TIME"] and int(fields[2]) >= FLAGS.warmup:
            attrs = dict(f.split("=") for f in fields[3:])
            samples.append(int(attrs["ticks"]) * 1e6 / int(attrs["ticks_per_second"]))
    return samples


def main(argv: List[str]) -> None:
    del argv
    inputs = read_inputs(FLAGS.input)
    reference = Runtime.get().load_program(FLAGS.pte).load_method("forward").execute(inputs)
    with tempfile.TemporaryDirectory() as tmp:
        expected = os.path.join(tmp, "expected.tensors")
        with open(expected, "wb") as f:
            f.write(tensor_file(list(reference)))
        ours = time_ours(expected)
    theirs = time_executorch(inputs)
    ours_median, theirs_median = statistics.median(ours), statistics.median(theirs)
    print(f"program: {FLAGS.pte}")
    print(f"iterations: {FLAGS.iterations} (after {FLAGS.warmup} warm-up)")
    print(f"ours (median us/inference): {ours_median:.1f}  min {min(ours):.1f}")
    print(f"executorch.runtime (median us/inference): {theirs_median:.1f}  min {min(theirs):.1f}")
    print(f"ratio ours/executorch: {ours_median / theirs_median:.2f}")


if __name__ == "__main__":
    app.run(main)
