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

from ethosu_sdk.aot import vela_workarounds
from ethosu_sdk.aot.compile import CompileOptions, compile_model
from ethosu_sdk.verify import verify

TARGET = os.environ["SWEEP_TARGET"]
QUANTIZE = os.environ["SWEEP_QUANTIZE"]
NPU_RUN = "sim/host/npu_run"
# What the sweep found and is not fixed yet: (target, quantization,
# producer, group) -> what differs. Each must still fail (drop it when not).
KNOWN: dict[tuple[str, str, str, int], str] = {}


def _pattern(module: str) -> str:
    """`patterns.relu_cat.producer.op` -> `relu_cat`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "patterns" else module or "<model>"


def _lower_and_verify(model: str, work: str) -> verify.Report:
    pte = os.path.join(work, "model.pte")
    verify_dir = os.path.join(work, "verify")
    compile_model(
        CompileOptions(model=model, target=TARGET, quantize=QUANTIZE, verify_dir=verify_dir),
        pte,
        progress=lambda _: None,
    )
    return verify.verify(pte, verify_dir, NPU_RUN)


@pytest.mark.parametrize("group", range(len(patterns.GROUPS)))
@pytest.mark.parametrize("producer", patterns.PRODUCERS)
def test_pattern_sweep(producer: str, group: int) -> None:
    with tempfile.TemporaryDirectory() as work:
        report = _lower_and_verify(patterns.model_name(producer, group), work)
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


@pytest.mark.skipif(QUANTIZE != "int8", reason="the dropped-activation CLAMP is added for int8 only")
def test_vela_linear_clamp_still_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """Vela's linear CLAMP issue (aot/vela_workarounds.py): with the CLAMP
    left between the linear layer's RESCALE and RESHAPE, the NPU program
    differs from the TOSA graph at that layer while the TOSA graph matches
    PyTorch. Fails once Vela compiles it: then drop `clamps_after_reshapes`."""
    monkeypatch.setattr(vela_workarounds, "clamps_after_reshapes", lambda graph_module: [])
    with tempfile.TemporaryDirectory() as work:
        report = _lower_and_verify("patterns:linear_relu_cat", work)
    assert all(t.max_steps <= 1 for p in report.partitions for t in p.lowering if t.note is None)
    differing = [layer for p in report.partitions for layer in p.layers if layer.compared and layer.differing]
    assert differing, "Vela now compiles the CLAMP before the RESHAPE: drop vela_workarounds.clamps_after_reshapes"
    assert differing[0].module == "producer.op", verify.format_report(report)
