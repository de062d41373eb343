"""CPU-only zoo models (no delegate) in firmware on QEMU's mps3-an547
(Cortex-M55) produce the same bits as the host runner on the same .pte and
input, and report their time, memory and program checksum."""

from __future__ import annotations

import subprocess
import zlib

import pytest

from ethosu_sdk.runner import protocol

MODELS = ["mlp_softmax_cpu_fp32", "mlp_softmax_cpu_int8", "resnet_blocks_cpu_int8"]
RUNNER = "python/ethosu_sdk/runner/run_firmware"
HOST_RUNNER = "sim/host/host_runner"


def run(command: list[str]) -> protocol.Run:
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    parsed = protocol.parse(result.stdout)
    assert parsed.ended, result.stdout[-3000:] + result.stderr[-3000:]
    assert not parsed.errors, parsed.errors
    return parsed


@pytest.mark.parametrize("model", MODELS)
def test_firmware_matches_host_runner_bit_for_bit(model: str) -> None:
    pte = f"tests/aot/{model}.pte"
    board = run([RUNNER, f"--elf=tests/firmware_model/{model}.elf"])
    host = run([HOST_RUNNER, f"--pte={pte}", f"--input=tests/aot/{model}.input.tensors"])
    assert board.outputs.keys() == host.outputs.keys() and board.outputs
    for index, expected in host.outputs.items():
        actual = board.outputs[index]
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        # Bits, not values: NaN and -0.0 must match too.
        assert actual.tobytes() == expected.tobytes(), f"output {index} differs"

    # The image carries exactly this program, and reports its figures.
    with open(pte, "rb") as f:
        data = f.read()
    program = board.records["PROGRAM"]
    assert int(program["bytes"]) == len(data)
    assert int(program["crc32"], 16) == zlib.crc32(data)
    assert board.ticks and board.ticks[0] > 0 and board.ticks_per_second
    memory = board.records["MEMORY"]
    assert int(memory["program"]) == len(data)
    assert 0 < int(memory["runtime_arena_used"]) <= int(memory["runtime_arena"])
    assert int(memory["peak"]) >= int(memory["planned"])
    assert int(board.records["NPU"]["delegate_calls"]) == 0  # CPU only
