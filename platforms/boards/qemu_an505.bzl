"""QEMU's mps2-an505: a Cortex-M33 (DSP extension, FPU, no MVE) in Arm's IoT
Kit (SSE-200), no NPU: the board of the cortex-m33 target's DSP kernels.

Secure aliases (address bit 28 set; the firmware runs in secure state with
the SAU off, so every address is secure). Bases and sizes as QEMU's
hw/arm/mps2-tz.c models them: SSRAM1, 4 MiB at 0x00000000, where the core
boots (init-svtor 0x10000000); SSRAM2 and SSRAM3, 2 MiB each, back to back at
0x28000000; the 16 MiB PSRAM at 0x80000000, which has no secure alias."""

load(":units.bzl", "MIB")

QEMU_AN505 = {
    "name": "qemu_an505",
    "cpu": {"name": "Cortex-M33", "mve": False, "dsp": True, "fpu": True},
    "npu": None,
    "memory": [
        {"name": "SSRAM1", "attributes": "rwx", "origin": 0x10000000, "length": 4 * MIB},
        {"name": "SSRAM23", "attributes": "rw", "origin": 0x38000000, "length": 4 * MIB},
        {"name": "PSRAM", "attributes": "rwx", "origin": 0x80000000, "length": 15 * MIB},
        # The last MiB of PSRAM: the heap is only for stdio.
        {"name": "PSRAM_HEAP", "attributes": "rw", "origin": 0x80F00000, "length": 1 * MIB},
    ],
    "roles": {
        "VECTORS": "SSRAM1",
        "CODE": "SSRAM1",
        "DATA": "SSRAM23",
        "HEAP": "PSRAM_HEAP",
        "BULK": "PSRAM",
        # No NPU: only gives .sram_bss a home (it stays empty).
        "NPU_SRAM": "SSRAM23",
    },
    "uart_base": 0x50200000,  # UART0 (secure alias of 0x40200000)
    "fpgaio_base": 0x50302000,  # FPGAIO (secure alias of 0x40302000)
    "fpgaio_hz": 20000000,  # the counter's clock: mps2-tz.c leaves FPGAIO's default
    "dwt_hz": None,
    "qemu": {
        "machine": "mps2-an505",
        "description": "QEMU mps2-an505 (Cortex-M33, IoT Kit, no NPU)",
    },
    "fvp": None,
    "budgets": None,  # no NPU, so no Vela memories to budget
}
