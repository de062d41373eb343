"""//examples:mv2_m55 end to end: MobileNetV2 lowered by ExecuTorch's
cortex_m passes, run on QEMU's Cortex-M55 by the SDK's cortex_m:: kernels,
every output bit-exact against the lowered graph run in Python. With
EXAMPLE=examples/mv2_m33.sh the same for //examples:mv2_m33 on QEMU's
Cortex-M33 (the kernels' DSP variants)."""

from __future__ import annotations

import os
import re
import subprocess

EXAMPLE = os.environ.get("EXAMPLE", "examples/mv2_m55.sh")


def test_mv2_is_bit_exact_on_the_cortex_m() -> None:
    result = subprocess.run([EXAMPLE], capture_output=True, text=True, timeout=1200)
    out = result.stdout
    assert result.returncode == 0, out[-4000:] + result.stderr[-4000:]
    assert "PASS: every output matches the reference" in out, out[-4000:]
    assert re.search(
        r"output 0: 1000/1000 within one quantization step, 1000 bit-exact, max difference 0 steps", out
    ), out
    # No NPU in the program or on the way: the cortex_m:: operators run on the CPU.
    assert "delegates: 0" in out and "cortex_m_quantized_conv2d 35" in out, out
    assert re.search(r"CPU instructions: [\d,]+ per inference", out), out
