"""The firmware of a program the functional model cannot run (an A16W8
conv3d on an Ethos-U85, built with verify = "warn") fails on QEMU, and the
console names the real cause, the accumulator chaining it does not model, not only the
driver's "command stream parse error"."""

from __future__ import annotations

import re
import subprocess

RUNNER = "python/ethosu_sdk/runner/run_firmware"
ELF = "tests/verify/conv3d_a16w8_u85_firmware.elf"


def test_device_names_the_missing_feature() -> None:
    result = subprocess.run(
        [RUNNER, f"--elf={ELF}", "--board=corstone320", "--npu=ethos-u85-256", "--timeout=120"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    console = result.stdout + result.stderr
    assert result.returncode != 0, console
    assert re.search(r"not supported by the model: .*48-bit accumulator chaining .*not supported", console), console
