"""The CPU programs of this package on QEMU, as `bazel run` runs them: the
Ethos-U55's fallback on mps3-an547's Cortex-M55 and the Ethos-U85's on
corstone-320's Cortex-M85, as cortex_m:: kernels beside the NPU, within one step of PyTorch's quantized graph (the rule of
every Ethos-U program: the NPU rounds as TOSA, not as PyTorch); the
integer-I/O cortex_m program bit-exact against its lowered graph run in
Python (ExecuTorch's reference of each cortex_m operator)."""

from __future__ import annotations

import re
import subprocess


def _run(script: str) -> str:
    result = subprocess.run([script], capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert "PASS: every output matches the reference" in result.stdout, result.stdout[-4000:]
    return result.stdout


def test_u55_fallback_runs_int8_on_the_cpu_beside_the_npu() -> None:
    out = _run("tests/cortex_m/strided_pool_u55.sh")
    assert re.search(r"delegates: 1 \(EthosUBackend", out), out
    assert re.search(r"left on the CPU: .*cortex_m_quantized_avg_pool2d 1", out), out
    assert "avg_pool2d 1" not in out.replace("cortex_m_quantized_avg_pool2d 1", ""), out
    assert re.search(r"output 0: 128/128 within one quantization step", out), out


def test_u85_fallback_runs_int8_on_the_cpu_beside_the_npu() -> None:
    out = _run("tests/cortex_m/dilated_upsample_u85.sh")
    assert re.search(r"delegates: 1 \(EthosUBackend", out), out
    assert re.search(r"left on the CPU: .*cortex_m_quantized_transpose_conv2d 1", out), out
    assert re.search(r"output 0: (\d+)/\1 within one quantization step", out), out


def test_int8_io_program_is_bit_exact_on_the_cortex_m55() -> None:
    out = _run("tests/cortex_m/small_cnn_m55_int8io.sh")
    assert re.search(r"output 0: 5/5 within one quantization step, 5 bit-exact, max difference 0 steps", out), out
    assert "delegates: 0" in out, out
