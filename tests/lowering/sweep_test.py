"""The pattern sweep: every (activation, consumer) pattern of each producer
(tests/lowering/patterns.py) lowered for one NPU and quantization, then both
halves checked as ethosu_model's verification does: the TOSA graph on the
TOSA reference model against PyTorch's quantized graph (every output, every
intermediate the lowering keeps), and the NPU program on the functional NPU
model against the TOSA graph, layer by layer.

One process per (NPU, quantization) target lowers up to ten models (two per
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
from ethosu_sdk.aot.workarounds import vela_faults, vela_workarounds
from ethosu_sdk.verify import verify

TARGET = os.environ["SWEEP_TARGET"]
QUANTIZE = os.environ["SWEEP_QUANTIZE"]
# Activation groups to lower (patterns.GROUPS indices; all by default): CI's
# A16W8 targets take one group each, so every pattern runs on one NPU.
GROUPS = [int(g) for g in os.environ.get("SWEEP_GROUPS", "").split(",") if g] or list(range(len(patterns.GROUPS)))
# Producers to lower (all by default): the everyday tier's two sweeps split
# them between the NPUs, so each producer, activation and consumer runs once.
PRODUCERS = [p for p in os.environ.get("SWEEP_PRODUCERS", "").split(",") if p] or list(patterns.PRODUCERS)
NPU_RUN = "sim/host/npu_run"


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


@pytest.mark.parametrize("group", GROUPS)
@pytest.mark.parametrize("producer", PRODUCERS)
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
    # Every pattern was checked against PyTorch (its output at least). By
    # pattern, not by delegate output: a program split into partitions (the
    # U55's A16W8 MatMul: 20 outputs, then 10) also outputs intermediates.
    checked = {
        _pattern(t.module) for p in report.partitions for t in p.lowering if t.output is not None and t.note is None
    }
    assert len(checked) == len(patterns.GROUPS[group]) * len(patterns.CONSUMERS), (
        f"{sorted(checked)}\n{verify.format_report(report)}"
    )
    assert report.passed, verify.format_report(report)


@pytest.mark.skipif(QUANTIZE != "int8", reason="the dropped-activation CLAMP is added for int8 only")
def test_vela_linear_clamp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Vela's linear CLAMP issue (aot/workarounds/vela_workarounds.py): with the CLAMP
    left between the linear layer's RESCALE and RESHAPE, the NPU program
    differs from the TOSA graph at that layer while the TOSA graph matches
    PyTorch, on every Vela that vela_faults.LINEAR_CLAMP applies to; on
    others it is bit-exact. Fails when the installed Vela and that record
    disagree."""
    present = vela_faults.applies(vela_faults.LINEAR_CLAMP)
    monkeypatch.setattr(vela_workarounds, "clamps_after_reshapes", lambda graph_module: [])
    with tempfile.TemporaryDirectory() as work:
        report = _lower_and_verify("patterns:linear_relu_cat", work)
    assert all(t.max_steps <= 1 for p in report.partitions for t in p.lowering if t.note is None)
    differing = [layer for p in report.partitions for layer in p.layers if layer.compared and layer.differing]
    version = vela_faults.installed_version()
    if not present:
        assert report.exact, f"Vela {version} still has the fault:\n{verify.format_report(report)}"
        return
    assert differing, f"Vela {version} compiles the CLAMP before the RESHAPE: set LINEAR_CLAMP's fixed_in"
    assert differing[0].module == "producer.op", verify.format_report(report)
