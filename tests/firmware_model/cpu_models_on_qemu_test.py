"""CPU-only zoo models (no delegate) in firmware on QEMU's mps3-an547
(Cortex-M55) produce the same bits as the host runner on the same .pte and
input, and report their time, memory and program checksum, and where the
time goes: one PROFILE record per instruction of the method, whose ticks
(board timer ticks, QEMU -icount instructions in units of 1e9 /
ticks_per_second) add up to the run's total."""

from __future__ import annotations

import re
import subprocess
import zlib

import pytest

from ethosu_sdk.runner import protocol

MODELS = ["mlp_softmax_cpu_fp32", "mlp_softmax_cpu_int8", "resnet_blocks_cpu_int8"]
RUNNER = "python/ethosu_sdk/runner/run_firmware"
HOST_RUNNER = "sim/host/host_runner"


PROFILE = re.compile(r"^ESDK PROFILE (\d+) ticks=(\d+) name=(\S+)$", re.MULTILINE)


def run_text(command: list[str]) -> tuple[protocol.Run, str]:
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    parsed = protocol.parse(result.stdout)
    assert parsed.ended, result.stdout[-3000:] + result.stderr[-3000:]
    assert not parsed.errors, parsed.errors
    return parsed, result.stdout


def run(command: list[str]) -> protocol.Run:
    return run_text(command)[0]


def profile(text: str) -> list[tuple[int, int, str]]:
    return [(int(pc), int(ticks), name) for pc, ticks, name in PROFILE.findall(text)]


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


@pytest.mark.parametrize("model", MODELS)
def test_the_profile_adds_up_to_the_run(model: str) -> None:
    board, text = run_text([RUNNER, f"--elf=tests/firmware_model/{model}.elf"])
    records = profile(text)
    # One record per instruction, in order, each operator named as the host
    # runner (the same runtime on the build machine) names it.
    assert [pc for pc, _, _ in records] == list(range(len(records))) and records
    _, host_text = run_text([HOST_RUNNER, f"--pte=tests/aot/{model}.pte", f"--input=tests/aot/{model}.input.tensors"])
    assert [name for _, _, name in records] == [name for _, _, name in profile(host_text)]
    assert any(name != "delegate" and "::" in name for _, _, name in records)
    # Ticks of the board timer that TIME reads; their sum is the run's total but
    # for Execute's own exit.
    total = board.ticks[-1]
    profiled = sum(ticks for _, ticks, _ in records)
    print(f"{model}: {len(records)} method instructions, {profiled} of {total} ticks profiled")  # the test log
    assert profiled <= total and total - profiled <= 0.01 * total, (profiled, total)
    assert all(ticks > 0 for _, ticks, _ in records)
