"""Arm's Corstone-300 FVP (SSE-300, MPS3): Cortex-M55 + Ethos-U55 (or U65).
Secure aliases; code and vectors in ITCM, where the core boots. The SDK has
no QEMU machine for it (QEMU's mps3-an547 is its own board): it runs on
Arm's FVP only."""

load(":units.bzl", "KIB", "MIB")

CORSTONE300 = {
    "name": "corstone300",
    "cpu": {"name": "Cortex-M55", "mve": True, "dsp": True, "fpu": True},
    "npu": {
        "constraint": "ethos_u55",
        "product": "ethos-u55",
        "macs": 128,
        "base": 0x58102000,
        "irq": 56,
    },
    "memory": [
        {"name": "ITCM", "attributes": "rx", "origin": 0x10000000, "length": 512 * KIB},
        {"name": "BRAM", "attributes": "rwx", "origin": 0x11000000, "length": 1 * MIB},
        {"name": "DTCM", "attributes": "rw", "origin": 0x30000000, "length": 512 * KIB},
        {"name": "SRAM", "attributes": "rw", "origin": 0x31000000, "length": 2 * MIB},
        {"name": "DDR", "attributes": "rwx", "origin": 0x70000000, "length": 256 * MIB},
    ],
    "roles": {
        "VECTORS": "ITCM",
        "CODE": "ITCM",
        "DATA": "DTCM",
        "HEAP": "BRAM",
        "BULK": "DDR",
        "NPU_SRAM": "SRAM",
    },
    "uart_base": 0x59303000,  # UART0
    "fpgaio_base": None,
    "fpgaio_hz": None,
    # Nominal core clock of the FVP: the DWT cycle counter is the timer (on
    # the SDK's QEMU, a clock counted on the virtual clock, never cycles).
    "dwt_hz": 25000000,
    "qemu": None,
    # Flags as Arm's own ExecuTorch flow passes them.
    "fvp": {
        "executable": "FVP_Corstone_SSE-300_Ethos-U55",
        "path_variable": "ETHOSU_SDK_FVP_CORSTONE300",
        "description": "Arm Corstone-300 FVP (Cortex-M55 + Ethos-U55)",
        "board": "mps3_board",
        "cpu": "cpu0",
        "npu": "ethosu",
    },
    "budgets": {"sram": ["SRAM"], "dram": ["DDR"]},
}
