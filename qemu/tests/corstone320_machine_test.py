"""The SDK's QEMU corstone-320 machine (qemu/hw/arm/corstone320.c).

Runs corstone320_probe, a bare-metal firmware built for the corstone320 board
(the ELF Arm's Corstone-320 FVP runs too), on @ethosu_qemu//:qemu-system-arm
and checks what it read against references outside the machine: Arm's
Cortex-M85 part number, the memories and peripherals as Corstone-320's
documents place them (the probe's own constants), the Ethos-U device core
loaded in-process, and the ELF's own program headers.
"""

import os
import re
import subprocess

import pytest
from machine_map import check_elf, machine_constants
from npu_core import CMD_END_REACHED, IRQ_RAISED, STATE, core_registers

QEMU = os.path.abspath(os.environ["QEMU"])
LIBRARY = os.path.abspath(os.environ["NPU_DEVICE_LIBRARY"])
PROBE = os.path.abspath(os.environ["PROBE_FIRMWARE"])
PACBTI_PROBE = os.path.abspath(os.environ["PACBTI_FIRMWARE"])
AN547_FIRMWARE = os.path.abspath(os.environ["AN547_FIRMWARE"])
MACHINE_SOURCE = os.environ["MACHINE_SOURCE"]

# Cortex-M85: implementer 0x41 (Arm), part number 0xD23 (Arm's Cortex-M85
# Technical Reference Manual, CPUID; Linux's proc-v7m.S matches the same).
ARM_IMPLEMENTER, CORTEX_M85_PARTNO = 0x41, 0xD23
# The firmware's fault report (cc/platform/cortex_m/fault_report.cc) ends a
# run that faults with this status.
FAULT_EXIT_STATUS = 3
# memories: (secure, non-secure, bytes), from Corstone-320's documents, as the
# probe accesses them.
REGIONS = {
    "itcm": (0x10000000, 0x00000000, 32 << 10),
    "bram": (0x12000000, 0x01000000, 2 << 20),
    "dtcm": (0x30000000, 0x20000000, 32 << 10),
    "sram": (0x31000000, 0x21000000, 4 << 20),
    "ddr": (0x70000000, 0x60000000, 256 << 20),
}
BOOT_ROM, BOOT_ROM_BYTES = 0x11000000, 128 << 10
NPU_SECURE, NPU_IRQ = 0x50004000, 16


def run(firmware: str, *args: str, npu: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    semihosting = "enable=on,target=native" + "".join(f",arg={a}" for a in ("probe", *args))
    command = [
        QEMU,
        "-M",
        "corstone-320",
        "-nographic",
        "-monitor",
        "none",
        "-semihosting-config",
        semihosting,
        "-icount",
        "shift=0,sleep=off",
        "-kernel",
        firmware,
    ]
    if npu:
        command += ["-global", "ethos-u-npu.library=" + LIBRARY]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def values(result: subprocess.CompletedProcess) -> dict[str, int]:
    assert result.returncode == 0, result.stdout + result.stderr
    return {key: int(value, 16) for key, value in re.findall(r"^(\w+)=0x([0-9a-f]+)$", result.stdout, re.M)}


@pytest.fixture(scope="module")
def survey() -> dict[str, int]:
    return values(run(PROBE))


def test_boots_from_the_boot_rom_on_a_cortex_m85(survey):
    cpuid = survey["cpuid"]
    assert cpuid >> 24 == ARM_IMPLEMENTER and (cpuid >> 4) & 0xFFF == CORTEX_M85_PARTNO
    # The reset vector the core took points into the code the ELF put in BRAM.
    assert REGIONS["bram"][0] <= survey["brom_reset_vector"] & ~1 < REGIONS["bram"][0] + REGIONS["bram"][2]
    assert survey["brom_changed_by_write"] == 0  # read-only


@pytest.mark.parametrize("name", sorted(REGIONS))
def test_memory_is_one_ram_through_both_aliases(survey, name):
    for end, offset in (("first", 0), ("last", REGIONS[name][2] - 4)):
        assert survey[f"{name}_{end}_s_to_ns"] == 0x5EC0A11A ^ offset
        assert survey[f"{name}_{end}_ns_to_s"] == 0x0A11A5EC ^ offset


@pytest.mark.parametrize(
    "address",
    [
        REGIONS["itcm"][0] + REGIONS["itcm"][2],  # past each memory
        BOOT_ROM + BOOT_ROM_BYTES,
        REGIONS["bram"][0] + REGIONS["bram"][2],
        REGIONS["dtcm"][0] + REGIONS["dtcm"][2],
        REGIONS["sram"][0] + REGIONS["sram"][2],
        REGIONS["ddr"][0] + REGIONS["ddr"][2],
        0x00100000,  # between the non-secure ITCM and BRAM
    ],
)
def test_unmapped_addresses_fault(address):
    result = run(PROBE, "read", f"0x{address:08x}")
    assert result.returncode == FAULT_EXIT_STATUS, result.stdout + result.stderr
    assert f"reading=0x{address:08x}" in result.stdout and "value=" not in result.stdout
    assert re.search(rf"FAULT \w+ .* bfar=0x{address:08x}", result.stdout), result.stdout


def test_mapped_address_reads_through_the_same_path():
    result = values(run(PROBE, "read", f"0x{BOOT_ROM + 4:08x}"))
    assert result["value"] & ~1 >= REGIONS["bram"][0]


def test_uart0_through_both_aliases(survey):
    out = run(PROBE).stdout
    assert "uart0 secure alias\n" in out and "uart0 non-secure alias\n" in out


def test_timers(survey):
    # SLOWCLK timer at 32.768 kHz of virtual time (1 ns per instruction).
    assert survey["timer_elapsed"] > 0
    assert survey["timer_pending_without_irq_enable"] == 0
    assert survey["timer_intstatus"] == 1 and survey["timer_pending"] == 1
    assert survey["timer_pending_after_clear"] == 0
    # The DWT's counter runs at the nominal 32 MHz of virtual time: under
    # -icount shift=0 one count per 31.25 instructions, never cycles. The
    # probe's 1000-iteration loop executes several thousand instructions.
    assert 1000 // 32 <= survey["dwt_elapsed"] < 100000 // 32


def test_npu_at_corstone320_address_and_irq(survey):
    assert (survey["board_npu_base"], survey["board_npu_irq"]) == (NPU_SECURE, NPU_IRQ)
    core = core_registers(LIBRARY, "ethos-u85", 256)  # the machine's default NPU
    assert survey["npu_id"] == core["id"] and survey["npu_id_ns"] == core["id"]
    assert survey["npu_config"] == core["config"]
    assert survey["npu_pending_at_boot"] == 0
    done = IRQ_RAISED | CMD_END_REACHED
    assert survey["npu_status_after_start"] & (STATE | done) == done
    assert survey["npu_pending_after_start"] == 1
    assert survey["npu_status_after_clear"] & IRQ_RAISED == 0
    assert survey["npu_pending_after_clear"] == 0


def test_pacbti_firmware_runs():
    with open(PACBTI_PROBE, "rb") as f:
        image = f.read()
    # PACBTI r12, lr, sp (T32 hint space: F3AF 800D, stored halfword-wise).
    assert b"\xaf\xf3\x0d\x80" in image, "the compiler emitted no PACBTI"
    seen = values(run(PACBTI_PROBE))
    assert (seen["cpuid"] >> 4) & 0xFFF == CORTEX_M85_PARTNO
    assert seen["npu_pending_after_start"] == 1


def test_an547_firmware_is_refused_not_hung():
    result = run(AN547_FIRMWARE, timeout=30)
    assert result.returncode == 1
    assert "not built for Corstone-320" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_elf_agrees_with_the_machine_map():
    c = machine_constants(MACHINE_SOURCE)
    # The machine's map is Corstone-320's as the probe knows it.
    for name, (secure, non_secure, size) in REGIONS.items():
        assert (c[f"C320_{name.upper()}_S"], c[f"C320_{name.upper()}_NS"], c[f"C320_{name.upper()}_SIZE"]) == (
            secure,
            non_secure,
            size,
        )
    assert (c["C320_NPU_S"], c["C320_NPU_IRQ"]) == (NPU_SECURE, NPU_IRQ)
    for firmware in (PROBE, PACBTI_PROBE):
        check_elf(firmware, c)
