"""Corstone-320 (SSE-320, MPS4): Cortex-M85 + Ethos-U85. One ELF for Arm's
Corstone-320 FVP and the SDK's QEMU corstone-320 machine
(qemu/hw/arm/corstone320.c). Secure aliases. The core boots from BROM; its
TCMs are small (32 KiB), so code runs from BRAM and data from the 4 MiB
SRAM."""

load(":units.bzl", "KIB", "MIB")

CORSTONE320 = {
    "name": "corstone320",
    "cpu": {"name": "Cortex-M85", "mve": True, "dsp": True, "fpu": True},
    "npu": {
        "constraint": "ethos_u85",
        "product": "ethos-u85",
        "macs": 256,
        "base": 0x50004000,
        "irq": 16,
    },
    "memory": [
        {"name": "ITCM", "attributes": "rwx", "origin": 0x10000000, "length": 32 * KIB},
        {"name": "BROM", "attributes": "rx", "origin": 0x11000000, "length": 128 * KIB},
        {"name": "BRAM", "attributes": "rwx", "origin": 0x12000000, "length": 2 * MIB},
        {"name": "DTCM", "attributes": "rw", "origin": 0x30000000, "length": 32 * KIB},
        {"name": "SRAM", "attributes": "rw", "origin": 0x31000000, "length": 4 * MIB},
        {"name": "DDR", "attributes": "rwx", "origin": 0x70000000, "length": 240 * MIB},
        # The last 16 MiB of DDR: the heap is only for stdio.
        {"name": "DDR_HEAP", "attributes": "rw", "origin": 0x7F000000, "length": 16 * MIB},
    ],
    "roles": {
        "VECTORS": "BROM",
        "CODE": "BRAM",
        "DATA": "SRAM",
        "HEAP": "DDR_HEAP",
        "BULK": "DDR",
        "NPU_SRAM": "SRAM",
    },
    "uart_base": None,  # console: semihosting only
    "fpgaio_base": None,
    "fpgaio_hz": None,
    # Nominal core clock of the FVP: the DWT cycle counter is the timer (on
    # the SDK's QEMU, a clock counted on the virtual clock, never cycles).
    "dwt_hz": 32000000,
    "qemu": {
        "machine": "corstone-320",
        "description": "QEMU corstone-320 (Cortex-M85, SSE-320)",
        # The DWT timer is enabled through DEMCR (0xE000EDFC), a register
        # QEMU's NVIC does not model (it logs each access; the counter itself
        # runs, on QEMU's -icount clock).
        "expected_guest_errors": ["NVIC: Bad read offset 0xdfc", "NVIC: Bad write offset 0xdfc"],
    },
    "fvp": {
        "executable": "FVP_Corstone_SSE-320",
        "path_variable": "ETHOSU_SDK_FVP_CORSTONE320",
        "description": "Arm Corstone-320 FVP (Cortex-M85 + Ethos-U85)",
        "board": "mps4_board",
        "cpu": "mps4_board.subsystem.cpu0",
        "npu": "mps4_board.subsystem.ethosu",
    },
    # DDR and its heap part together: 256 MiB of external memory.
    "budgets": {"sram": ["SRAM"], "dram": ["DDR", "DDR_HEAP"]},
}
