"""The pattern sweep: every (activation, consumer) pattern of each producer
(tests/lowering/patterns.py) lowered for one NPU and quantization, then both
halves checked as ethosu_model's verification does: the TOSA graph on the
TOSA reference model against PyTorch's quantized graph (every output, every
intermediate the lowering keeps), and the NPU program on the functional NPU
model against the TOSA graph, layer by layer.

One process per (NPU, quantization) target lowers ten models (two per
producer, ten patterns each): torch and ExecuTorch are imported once. Prints the
table bench/RESULTS.md records (pattern: the largest difference in steps of
the lowering, and NPU elements differing).
"""

import os
import sys
import tempfile

import patterns
import pytest

from ethosu_sdk.aot.compile import CompileOptions, compile_model
from ethosu_sdk.verify import verify

TARGET = os.environ["SWEEP_TARGET"]
QUANTIZE = os.environ["SWEEP_QUANTIZE"]
NPU_RUN = "sim/host/npu_run"
# What the sweep found and is not fixed yet: (target, quantization,
# producer, group) -> what differs. Each must still fail (drop it when not).
KNOWN = {
    ("ethos-u85-256", "int8", "linear", 0): (
        "linear -> ReLU/ReLU6 -> cat: the lowering matches PyTorch (with the clamp workaround), but the NPU "
        "program differs from the TOSA graph at the CLAMP after the linear's RESCALE (Vela Conv2D; 296 of 512 "
        "elements): Vela or the functional NPU model, not yet known"
    ),
}


def _pattern(module: str) -> str:
    """`patterns.relu_cat.producer.op` -> `relu_cat`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "patterns" else module or "<model>"


@pytest.mark.parametrize("group", range(len(patterns.GROUPS)))
@pytest.mark.parametrize("producer", patterns.PRODUCERS)
def test_pattern_sweep(producer: str, group: int) -> None:
    with tempfile.TemporaryDirectory() as work:
        pte = os.path.join(work, f"{producer}.pte")
        verify_dir = os.path.join(work, "verify")
        compile_model(
            CompileOptions(
                model=patterns.model_name(producer, group), target=TARGET, quantize=QUANTIZE, verify_dir=verify_dir
            ),
            pte,
            progress=lambda _: None,
        )
        report = verify.verify(pte, verify_dir, NPU_RUN)
    rows: dict[str, dict[str, int]] = {}
    for p in report.partitions:
        for t in p.lowering:
            if t.note is None:
                row = rows.setdefault(_pattern(t.module), {"lowering": 0, "npu": 0})
                row["lowering"] = max(row["lowering"], t.max_steps)
        for layer in p.layers:
            if layer.compared:
                row = rows.setdefault(_pattern(layer.module), {"lowering": 0, "npu": 0})
                row["npu"] += layer.differing
    print(f"\n{TARGET} {QUANTIZE} {producer}: {verify.summary_line(report)}", file=sys.stderr)
    for name in sorted(rows):
        print(
            f"  {producer:<10} {name:<18} lowering max {rows[name]['lowering']:>3} step(s), "
            f"NPU {rows[name]['npu']} element(s) differ",
            file=sys.stderr,
        )
    skipped = [p.skipped for p in report.partitions if p.skipped]
    assert not skipped, skipped
    # Every pattern was checked against PyTorch (its output at least).
    outputs = sum(1 for p in report.partitions for t in p.lowering if t.output is not None and t.note is None)
    assert outputs == len(patterns.GROUPS[group]) * len(patterns.CONSUMERS), verify.format_report(report)
    known = KNOWN.get((TARGET, QUANTIZE, producer, group))
    if known:
        assert not report.passed, f"fixed, drop it from KNOWN: {known}"
        pytest.xfail(known)
    assert report.passed, verify.format_report(report)
