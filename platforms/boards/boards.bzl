"""Every board the SDK builds firmware for: one descriptor each (this
folder's <board>.bzl). The Bazel platforms (//platforms), the boards'
constraint values, the linker scripts' MEMORY blocks (cc/platform), the
firmware rules' board table (tools/rules/firmware.bzl), the runner's boards
and the firmware build's memory budgets (the generated Python module
ethosu_sdk.board_table) all come from here."""

load(":corstone300.bzl", "CORSTONE300")
load(":corstone320.bzl", "CORSTONE320")
load(":qemu_an386.bzl", "QEMU_AN386")
load(":qemu_an500.bzl", "QEMU_AN500")
load(":qemu_an505.bzl", "QEMU_AN505")
load(":qemu_an547.bzl", "QEMU_AN547")

BOARD_LIST = [
    QEMU_AN547,
    QEMU_AN505,
    QEMU_AN386,
    QEMU_AN500,
    CORSTONE300,
    CORSTONE320,
]

BOARDS = {board["name"]: board for board in BOARD_LIST}

def cpu_constraint(board):
    """The //platforms/cpu constraint value of `board`'s core ("cortex_m55")."""
    return board["cpu"]["name"].lower().replace("-", "_")

# Each core's architecture as @platforms//cpu names it (armv7e-mf: Armv7E-M
# with an FPU); the toolchains (//toolchains/arm_none_eabi) match on it.
CPU_ARCH = {
    "cortex_m4": "armv7e-mf",
    "cortex_m7": "armv7e-mf",
    "cortex_m33": "armv8-m",
    "cortex_m55": "armv8-m",
    "cortex_m85": "armv8-m",
}

def platform_constraints(board):
    """The constraint values of `board`'s Bazel platform."""
    constraints = [
        "@platforms//os:none",
        "@platforms//cpu:" + CPU_ARCH[cpu_constraint(board)],
        "//platforms/cpu:" + cpu_constraint(board),
        "//platforms/board:" + board["name"],
    ]
    if board["npu"]:
        constraints.append("//platforms/npu:" + board["npu"]["constraint"])
    return constraints
