"""`bazel run //examples:mv2_u85_int8io` end to end: MobileNetV2 on the
Ethos-U85-256 with integer I/O. Nothing is left on the CPU (the input
quantize and output dequantize are folded out), the program takes and
returns int8 tensors, and the quantized logits are within one step of
PyTorch's quantized graph (the NPU rounds as TOSA does)."""

from __future__ import annotations

import re
import subprocess


def test_mv2_u85_with_int8_io_passes_with_nothing_on_the_cpu() -> None:
    result = subprocess.run(["examples/mv2_u85_int8io.sh"], capture_output=True, text=True, timeout=1200)
    out = result.stdout
    assert result.returncode == 0, out[-4000:] + result.stderr[-4000:]
    assert "left on the CPU: none" in out, out
    assert re.search(r"output 0: 1000/1000 within one quantization step, \d+ bit-exact, max difference [01] steps", out)
    assert re.search(r"CPU instructions: [\d,]+ per inference", out), out
    assert "PASS: every output matches the reference" in out, out
