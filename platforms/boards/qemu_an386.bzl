"""QEMU's mps2-an386: a Cortex-M4 (Armv7E-M: DSP extension, single-precision
FPU fpv4-sp-d16, no MVE, no TrustZone) on Arm's MPS2 FPGA image AN386, no
NPU: the board of the cortex-m4 target's DSP kernels.

Bases and sizes as QEMU's hw/arm/mps2.c models them: SSRAM1, 4 MiB at
0x00000000, where the core boots (VTOR resets to 0); SSRAM2 and SSRAM3, 4 MiB
together at 0x20000000; the 16 MiB PSRAM at 0x21000000. The 16 KiB block RAM
at 0x01000000 is left unused. The FPGAIO counter runs at 25 MHz here (QEMU's
mps2.c sets its prescale clock to the board's SYSCLK), not the 20 MHz of the
mps2-tz boards."""

load(":units.bzl", "MIB")

QEMU_AN386 = {
    "name": "qemu_an386",
    "cpu": {"name": "Cortex-M4", "mve": False, "dsp": True, "fpu": True},
    "npu": None,
    "memory": [
        {"name": "SSRAM1", "attributes": "rwx", "origin": 0x00000000, "length": 4 * MIB},
        {"name": "SSRAM23", "attributes": "rw", "origin": 0x20000000, "length": 4 * MIB},
        {"name": "PSRAM", "attributes": "rwx", "origin": 0x21000000, "length": 15 * MIB},
        # The last MiB of PSRAM: the heap is only for stdio.
        {"name": "PSRAM_HEAP", "attributes": "rw", "origin": 0x21F00000, "length": 1 * MIB},
    ],
    # MobileNetV2's 3.6 MB program and its arenas go to PSRAM (BULK); code
    # and read-only data stay in SSRAM1, data and the stack in SSRAM2/3.
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
        "machine": "mps2-an386",
        "description": "QEMU mps2-an386 (Cortex-M4, no NPU)",
    },
    "fvp": None,
    "budgets": None,  # no NPU, so no Vela memories to budget
}
