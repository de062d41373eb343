"""The AOT stage writes the same bytes whatever code paths the build host's
CPU gives torch, MKL, oneDNN and NumPy (python/ethosu_sdk/host_numerics.py).

Another machine is stood in for by capping this one's dispatch: ATen's
scalar kernels instead of its best, MKL held to SSE4.2, oneDNN to SSE4.1,
NumPy without AVX. Each compilation runs in a fresh process, because
each library reads its choice once per process; the everyday check holds
one capped compilation against the bytes the build's AOT worker wrote with
this host's own dispatch. A control shows that the caps are a real
stand-in here: with the pinning switched off they change the bytes."""

from __future__ import annotations

import hashlib
import os
import pathlib
import subprocess
import sys

import pytest

from ethosu_sdk import host_numerics

CAPPED_DISPATCH = host_numerics.OTHER_HOST_STAND_IN
OUTPUTS = (".pte", ".input.tensors", ".expected.tensors")

# Zoo models: one with GELU, LayerNorm and softmax (ATen's vector and scalar
# paths round them differently, and the observers see it) for an NPU, one
# CNN (convolutions through oneDNN or MKL) for a CPU without one.
CASES = [("transformer_block", "ethos-u55-128"), ("kws_dscnn", "cortex-m55")]

# The everyday check, one fresh process: the capped compilation against the
# bytes the build wrote in its AOT worker with this host's own dispatch.
BUILT = ("transformer_block", "ethos-u85-256", "tests/aot/transformer_block_u85_256")


def _host_has_avx2() -> bool:
    return " avx2" in pathlib.Path("/proc/cpuinfo").read_text()


def _compile(out: pathlib.Path, model: str, target: str, dispatch: dict[str, str], native: bool) -> dict[str, str]:
    """Digests of one compilation's outputs, in a process of its own."""
    env = {k: v for k, v in os.environ.items() if k not in host_numerics.ENVIRONMENT}
    env.pop(host_numerics.OPT_OUT_VARIABLE, None)
    env.update(dispatch)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    if native:
        env[host_numerics.OPT_OUT_VARIABLE] = host_numerics.NATIVE
    out.mkdir()
    pte = out / "model.pte"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "ethosu_sdk.cli.aot_compile",
            f"--model={model}",
            f"--target={target}",
            f"--output={pte}",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    return {s: hashlib.sha256((out / ("model" + s)).read_bytes()).hexdigest() for s in OUTPUTS}


@pytest.mark.parametrize("model,target", CASES)
def test_capped_dispatch_writes_the_same_bytes(tmp_path: pathlib.Path, model: str, target: str) -> None:
    full = _compile(tmp_path / "full", model, target, {}, native=False)
    capped = _compile(tmp_path / "capped", model, target, CAPPED_DISPATCH, native=False)
    assert full == capped


def test_capped_dispatch_writes_the_builds_bytes(tmp_path: pathlib.Path) -> None:
    model, target, built = BUILT
    capped = _compile(tmp_path / "capped", model, target, CAPPED_DISPATCH, native=False)
    assert capped == {s: hashlib.sha256(pathlib.Path(built + s).read_bytes()).hexdigest() for s in OUTPUTS}


@pytest.mark.skipif(not _host_has_avx2(), reason="the caps only differ from a host with AVX2")
def test_without_the_pinning_the_caps_change_the_bytes(tmp_path: pathlib.Path) -> None:
    model, target = CASES[0]
    full = _compile(tmp_path / "full", model, target, {}, native=True)
    capped = _compile(tmp_path / "capped", model, target, CAPPED_DISPATCH, native=True)
    assert full != capped, "the stand-in for another host changed nothing: the test above proves nothing here"
