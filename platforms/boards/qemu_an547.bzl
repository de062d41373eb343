"""QEMU's mps3-an547: a Cortex-M55 in the SSE-300 subsystem (as Corstone-300),
the open default board. Its NPU is the SDK's Ethos-U device (the functional
model) in Corstone-300's NPU slot. Addresses are the secure aliases; sizes as
QEMU models them."""

load(":units.bzl", "KIB", "MIB")

QEMU_AN547 = {
    "name": "qemu_an547",
    "cpu": {"name": "Cortex-M55", "mve": True, "dsp": True, "fpu": True},
    # No real NPU: QEMU's device runs whichever Ethos-U the model targets;
    # without --npu it is Corstone-300's U55-128.
    "npu": {
        "constraint": "functional_model",
        "product": "ethos-u55",
        "macs": 128,
        "base": 0x58102000,
        "irq": 56,
    },
    "memory": [
        {"name": "ITCM", "attributes": "rx", "origin": 0x10000000, "length": 512 * KIB},
        {"name": "SRAM", "attributes": "rwx", "origin": 0x11000000, "length": 2 * MIB},
        {"name": "DTCM", "attributes": "rw", "origin": 0x30000000, "length": 512 * KIB},
        {"name": "ISRAM", "attributes": "rw", "origin": 0x31000000, "length": 4 * MIB},
        {"name": "DDR", "attributes": "rwx", "origin": 0x70000000, "length": 256 * MIB},
    ],
    # The roles cc/platform/cortex_m/sections.ld places sections in.
    "roles": {
        "VECTORS": "ITCM",
        "CODE": "ITCM",
        "DATA": "DTCM",
        "HEAP": "SRAM",
        "BULK": "DDR",
        "NPU_SRAM": "ISRAM",
    },
    "uart_base": 0x59303000,  # UART0
    "fpgaio_base": 0x59302000,  # FPGAIO: its counter is the timer
    "fpgaio_hz": 20000000,  # the counter's clock: mps2-tz.c leaves FPGAIO's default
    "dwt_hz": None,
    "qemu": {
        "machine": "mps3-an547",
        "description": "QEMU mps3-an547 (Cortex-M55, SSE-300)",
    },
    "fvp": None,
    # What Vela may place: "sram" the NPU's fast memory, "dram" the external
    # memory (DRAM and off-chip flash).
    "budgets": {"sram": ["ISRAM"], "dram": ["DDR"]},
}
