"""A firmware driving QEMU's Ethos-U device through its registers gives the
same bytes as the host runner calling the functional model directly:
MobileNetV2 for ethos-u85-256 (corstone320 on the SDK's QEMU corstone-320,
Cortex-M85) and ethos-u55-128 (mps3-an547, Cortex-M55), through the whole .pte
(CPU quantize, NPU delegate, CPU dequantize), compared bit for bit. Host
bit-exactness against the TOSA reference model is
//sim/tests/npu:u85_mobilenet_v2 / u55_mobilenet_v2."""

from __future__ import annotations

import json
import pathlib
import subprocess

import pytest

from ethosu_sdk.runner import protocol

RUNNER = "python/ethosu_sdk/runner/run_firmware"
HOST_RUNNER = "sim/host/host_runner"


def parsed(command: list[str]) -> protocol.Run:
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    run = protocol.parse(result.stdout)
    assert run.ended and not run.errors, result.stdout[-3000:] + result.stderr[-3000:]
    return run


@pytest.mark.parametrize("target", ["u85", "u55"])
def test_qemu_and_host_give_the_same_bytes(target: str) -> None:
    model = f"examples/mv2_{target}_model"
    host = parsed([HOST_RUNNER, f"--pte={model}.pte", f"--input={model}.input.tensors"])
    npu = {"u85": "ethos-u85-256", "u55": "ethos-u55-128"}[target]
    board_name = {"u85": "corstone320", "u55": "qemu_an547"}[target]
    board = parsed([RUNNER, f"--board={board_name}", f"--elf=examples/mv2_{target}_firmware.elf", f"--npu={npu}"])
    assert int(board.records["NPU"]["delegate_calls"]) == 1
    # The driver found the configured device and ran the job on it.
    assert board.records["NPU"]["npu"] == npu
    assert int(board.records["NPU"]["jobs"]) == 1
    # mv2_u85 runs in a Dedicated_Sram mode (region 2, the arena cache the tuner
    # chose, in the board's SRAM), mv2_u55 in Shared_Sram (none).
    fast_scratch = json.loads(pathlib.Path(f"{model}.summary.json").read_text())["fast_scratch_bytes"]
    assert (fast_scratch > 0) == (target == "u85")
    assert int(board.records["MEMORY"]["fast_scratch"]) == fast_scratch
    assert host.outputs.keys() == board.outputs.keys() == {0}
    assert board.outputs[0].shape == (1, 1000)
    assert board.outputs[0].tobytes() == host.outputs[0].tobytes()
