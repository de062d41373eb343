"""small_cnn on QEMU's boards whose Cortex-M has the DSP extension and no
MVE (qemu_an386: Cortex-M4, qemu_an500: Cortex-M7, qemu_an505: Cortex-M33),
as `bazel run` runs it: the cortex_m:: kernels' DSP variants, every output
bit-exact against the lowered graph run in Python, on the board's own
machine. DSP_CORES names the cores built for this run (the everyday tier
the Cortex-M33's, the full tier all three)."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

BOARDS = {
    "m4": ("qemu_an386", "QEMU mps2-an386 (Cortex-M4, no NPU)"),
    "m7": ("qemu_an500", "QEMU mps2-an500 (Cortex-M7, no NPU)"),
    "m33": ("qemu_an505", "QEMU mps2-an505 (Cortex-M33, IoT Kit, no NPU)"),
}


@pytest.mark.parametrize("core", os.environ.get("DSP_CORES", ",".join(sorted(BOARDS))).split(","))
def test_small_cnn_is_bit_exact_on_the_board(core: str) -> None:
    board, machine = BOARDS[core]
    result = subprocess.run([f"tests/cortex_m/small_cnn_{core}.sh"], capture_output=True, text=True, timeout=600)
    out = result.stdout
    assert result.returncode == 0, out[-4000:] + result.stderr[-4000:]
    assert f"for cortex-{core} on {board}" in out, out[-4000:]
    assert f"Running on {machine}" in out, out[-4000:]
    assert "delegates: 0" in out, out
    assert re.search(r"output 0: 5/5 within one quantization step, 5 bit-exact, max difference 0 steps", out), out
    assert re.search(r"CPU instructions: [\d,]+ per inference", out), out
    assert "PASS: every output matches the reference" in out, out
