"""The Ethos-U device of the SDK's QEMU, from the firmware's side.

Runs npu_probe (a bare-metal firmware for mps3-an547) on
@ethosu_qemu//:qemu-system-arm with the device core
(//sim/device:libethosu_npu_device.so) and checks what it read against the
core itself, loaded here in-process through the same C interface
(device_abi.h): the QEMU side must only forward.
"""

import os
import re
import subprocess

import pytest
from npu_core import BUS_STATUS, CMD_END_REACHED, IRQ_RAISED, STATE
from npu_core import core_registers as core_at

QEMU = os.path.abspath(os.environ["QEMU"])
LIBRARY = os.path.abspath(os.environ["NPU_DEVICE_LIBRARY"])
FIRMWARE = os.path.abspath(os.environ["PROBE_FIRMWARE"])


def core_registers(product: str, macs: int) -> dict[str, int]:
    return core_at(LIBRARY, product, macs)


def run_qemu(*globals_: str) -> subprocess.CompletedProcess:
    args = [
        QEMU,
        "-M",
        "mps3-an547",
        "-nographic",
        "-monitor",
        "none",
        "-semihosting-config",
        "enable=on,target=native",
        "-icount",
        "shift=0,sleep=off",
        "-kernel",
        FIRMWARE,
    ]
    for setting in globals_:
        args += ["-global", "ethos-u-npu." + setting]
    return subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)


def probe(*globals_: str) -> dict[str, int]:
    result = run_qemu(*globals_)
    assert result.returncode == 0, result.stdout + result.stderr
    return {key: int(value, 16) for key, value in re.findall(r"^(\w+)=0x([0-9a-f]+)$", result.stdout, re.M)}


@pytest.mark.parametrize(
    "product,macs", [("ethos-u55", 128), ("ethos-u55", 256), ("ethos-u65", 512), ("ethos-u85", 256)]
)
def test_registers_irq_and_clear(product, macs):
    core = core_registers(product, macs)
    seen = probe("library=" + LIBRARY, "product=" + product, f"macs={macs}")
    assert seen["id"] == core["id"] and seen["id_ns"] == core["id"]
    assert seen["config"] == core["config"]
    assert seen["reg_0180"] == core["reg_0180"] and seen["reg_1180"] == core["reg_1180"]
    assert seen["prot"] == core["prot"]
    assert seen["pending_at_boot"] == 0
    # One STOP: the job ends, the stream is consumed, IRQ 56 is pending.
    assert seen["status_after_start"] & (STATE | IRQ_RAISED | CMD_END_REACHED) == IRQ_RAISED | CMD_END_REACHED
    assert seen["qread"] == 4
    assert seen["pending_after_start"] == 1
    # CMD clear_irq drops the line: cleared at the NVIC, it stays clear.
    assert seen["status_after_clear"] & IRQ_RAISED == 0
    assert seen["pending_after_clear"] == 0
    # The stream fetched through the MPCs (SRAM, DDR); from a UART, a bus error.
    done = IRQ_RAISED | CMD_END_REACHED
    assert seen["status_sram"] & (done | BUS_STATUS) == done
    assert seen["status_ddr"] & (done | BUS_STATUS) == done
    assert seen["status_uart"] & (IRQ_RAISED | BUS_STATUS) == IRQ_RAISED | BUS_STATUS


def test_u85_window_covers_the_second_placeholder():
    u85, u55 = core_registers("ethos-u85", 256), core_registers("ethos-u55", 128)
    assert (u85["window"], u55["window"]) == (0x2000, 0x1000)
    assert u85["reg_1180"] != 0  # so the probe's read there shows the U85's PMU


def test_default_product_is_a_u55_128():
    assert probe("library=" + LIBRARY)["config"] == core_registers("ethos-u55", 128)["config"]


def test_never_complete_keeps_running_without_irq():
    seen = probe("library=" + LIBRARY, "x-never-complete=on")
    assert seen["status_after_start"] & (STATE | IRQ_RAISED) == STATE
    assert seen["pending_after_start"] == 0


def test_without_library_it_is_a_placeholder():
    result = run_qemu()
    assert result.returncode == 0, result.stderr
    assert "id=0x00000000" in result.stdout and "config=0x00000000" in result.stdout
    assert result.stderr.count("no device library was given") == 1


def test_missing_library_is_one_clear_error():
    result = run_qemu("library=/nonexistent/libethosu_npu_device.so")
    assert result.returncode != 0
    assert "cannot load the device library /nonexistent/libethosu_npu_device.so" in result.stderr


def test_unknown_configuration_is_refused():
    result = run_qemu("library=" + LIBRARY, "product=ethos-u99")
    assert result.returncode != 0
    assert "refused product=ethos-u99" in result.stderr
