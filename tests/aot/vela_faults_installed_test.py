"""Each Vela fault the SDK works around (python/ethosu_sdk/aot/workarounds/vela_faults.py),
shown or shown absent on the installed Vela: the fault's pattern is lowered
with its workaround off, and the NPU program must differ from the TOSA
reference model exactly when `vela_faults.applies` says the installed
version has the fault. The comparison is the build-time verification's (the
functional NPU model against the TOSA reference model, layer by layer; the
TOSA graph against PyTorch's quantized graph). After a Vela upgrade, a fault
that is gone fails here until its `fixed_in` names the version.

The other faults have tests of the same kind beside the workaround's own:
the lost output in vela_workarounds_test.py, the linear CLAMP in
tests/lowering/sweep_test.py."""

from __future__ import annotations

import os

import pytest

from ethosu_sdk.aot.compile import CompileOptions, compile_model
from ethosu_sdk.aot.workarounds import vela_faults
from ethosu_sdk.verify import verify

NPU_RUN = "sim/host/npu_run"


def _without(fault: vela_faults.VelaFault, monkeypatch: pytest.MonkeyPatch) -> None:
    applies = vela_faults.applies
    monkeypatch.setattr(vela_faults, "applies", lambda f: f is not fault and applies(f))


def _lower_and_verify(model: str, target: str, work: str) -> verify.Report:
    pte = os.path.join(work, "model.pte")
    verify_dir = os.path.join(work, "verify")
    compile_model(
        CompileOptions(model=model, target=target, quantize="int8", verify_dir=verify_dir),
        pte,
        progress=lambda _: None,
    )
    return verify.verify(pte, verify_dir, NPU_RUN)


@pytest.mark.parametrize(
    "fault, model, target",
    [
        (vela_faults.UNBIND_MATMUL, "transformer_block", "ethos-u85-256"),
        (vela_faults.UNBIND_MATMUL, "transformer_block", "ethos-u55-128"),
        (vela_faults.CONV3D_SLICE, "aot_test_models:conv3d_cropped", "ethos-u85-256"),
    ],
    ids=["unbind_matmul_u85", "unbind_matmul_u55", "conv3d_slice_u85"],
)
def test_fault_shows_exactly_where_it_applies(fault, model, target, tmp_path, monkeypatch) -> None:
    present = vela_faults.applies(fault)
    _without(fault, monkeypatch)
    report = _lower_and_verify(model, target, str(tmp_path))
    assert not [p.skipped for p in report.partitions if p.skipped], verify.format_report(report)
    # The TOSA graph is right either way: what differs is Vela's.
    assert report.first_divergence() is None, verify.format_report(report)
    differing = [layer for p in report.partitions for layer in p.layers if layer.compared and layer.differing]
    version = vela_faults.installed_version()
    if present:
        assert differing, (
            f"Vela {version} compiles {model} correctly without the workaround: set {fault.name}'s fixed_in"
        )
    else:
        assert report.exact, f"Vela {version} still has {fault.name}:\n{verify.format_report(report)}"
