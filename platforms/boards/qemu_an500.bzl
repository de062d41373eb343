"""QEMU's mps2-an500: a Cortex-M7 (Armv7E-M: DSP extension, double-precision
FPU fpv5-d16, no MVE, no TrustZone) on Arm's MPS2 FPGA image AN500, no NPU:
the board of the cortex-m7 target's DSP kernels.

Bases and sizes as QEMU's hw/arm/mps2.c models them: SSRAM1, 4 MiB at
0x00000000, where the core boots (VTOR resets to 0); SSRAM2 and SSRAM3, 4 MiB
together at 0x20000000; the 16 MiB PSRAM at 0x60000000 (not at 0x21000000 as
on the AN385/AN386), no block RAM. QEMU models no caches or TCMs for it. The
FPGAIO counter runs at 25 MHz, as on the AN386."""

load(":units.bzl", "MIB")

QEMU_AN500 = {
    "name": "qemu_an500",
    "cpu": {"name": "Cortex-M7", "mve": False, "dsp": True, "fpu": True},
    "npu": None,
    "memory": [
        {"name": "SSRAM1", "attributes": "rwx", "origin": 0x00000000, "length": 4 * MIB},
        {"name": "SSRAM23", "attributes": "rw", "origin": 0x20000000, "length": 4 * MIB},
        {"name": "PSRAM", "attributes": "rwx", "origin": 0x60000000, "length": 15 * MIB},
        # The last MiB of PSRAM: the heap is only for stdio.
        {"name": "PSRAM_HEAP", "attributes": "rw", "origin": 0x60F00000, "length": 1 * MIB},
    ],
    # As qemu_an386: the model and its arenas in PSRAM (BULK).
    "roles": {
        "VECTORS": "SSRAM1",
        "CODE": "SSRAM1",
        "DATA": "SSRAM23",
        "HEAP": "PSRAM_HEAP",
        "BULK": "PSRAM",
        # No NPU: only gives .sram_bss a home (it stays empty).
        "NPU_SRAM": "SSRAM23",
    },
    "uart_base": 0x40004000,  # UART0
    "fpgaio_base": 0x40028000,  # FPGAIO: its counter is the timer
    "fpgaio_hz": 25000000,
    "dwt_hz": None,
    "qemu": {
        "machine": "mps2-an500",
        "description": "QEMU mps2-an500 (Cortex-M7, no NPU)",
    },
    "fvp": None,
    "budgets": None,  # no NPU, so no Vela memories to budget
}
