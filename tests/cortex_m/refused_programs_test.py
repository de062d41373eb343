"""Whole cortex_m programs the kernels refuse, on the host runner: one
ESDK ERROR line naming the operator and what was checked, exit 2, within a
timeout. Their QEMU runs are :shift_refused_on_qemu_test and
:scratch_too_small_on_qemu_test."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from ethosu_sdk.runner import protocol

HERE = Path("tests/cortex_m")
HOST_RUNNER = "sim/host/host_runner"
ERROR_STATUS = 2  # the runner's status for a program that fails (cc/runner/PROTOCOL.md)


def _run(pte: Path, model: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            HOST_RUNNER,
            f"--pte={pte}",
            f"--input={HERE / model}.input.tensors",
            f"--expected={HERE / model}.expected.tensors",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _error_lines(run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in (run.stdout + run.stderr).splitlines() if line.startswith("ESDK ERROR")]


def test_a_shift_outside_the_kernels_range_is_refused() -> None:
    # ExecuTorch lowers it (quantize_multiplier_aot leaves the shift at 34);
    # the kernel takes [-31, 30].
    run = _run(HERE / "zero_output_conv_m55.pte", "zero_output_conv_m55")
    assert run.returncode == ERROR_STATUS, run.stdout + run.stderr
    lines = _error_lines(run)
    assert len(lines) == 1, run.stdout + run.stderr
    assert re.fullmatch(
        r"ESDK ERROR InvalidArgument instruction=\d+ operator cortex_m::quantized_conv2d\.out: "
        r"requantize shift is 34, outside \[-31, 30\]",
        lines[0],
    ), lines[0]
    assert protocol.parse(run.stdout).result == "ERROR"


def test_a_small_scratch_is_enough_for_the_plain_c_convolution() -> None:
    # The host's plain C convolution needs no scratch (only the Helium one
    # gathers patches into it), so the program with its scratch cut to 16
    # bytes still runs bit-exact here; on the Cortex-M55 it is refused.
    run = _run(HERE / "small_scratch.pte", "small_cnn_m55_int8io_model")
    parsed = protocol.parse(run.stdout)
    assert run.returncode == 0 and parsed.result == "PASS", run.stdout + run.stderr
    assert not _error_lines(run)
