"""Every board the SDK builds firmware for: one descriptor each (this
folder's <board>.bzl). The Bazel platforms (//platforms), the boards'
constraint values, the linker scripts' MEMORY blocks (cc/platform), the
firmware rules' board table (tools/rules/firmware.bzl), the runner's boards
and the firmware build's memory budgets (the generated Python module
ethosu_sdk.board_table) all come from here."""

load(":corstone300.bzl", "CORSTONE300")
load(":corstone320.bzl", "CORSTONE320")
load(":qemu_an505.bzl", "QEMU_AN505")
load(":qemu_an547.bzl", "QEMU_AN547")

BOARD_LIST = [
    QEMU_AN547,
    QEMU_AN505,
    CORSTONE300,
    CORSTONE320,
]

BOARDS = {board["name"]: board for board in BOARD_LIST}

def cpu_constraint(board):
    """The //platforms/cpu constraint value of `board`'s core ("cortex_m55")."""
    return board["cpu"]["name"].lower().replace("-", "_")

def platform_constraints(board):
    """The constraint values of `board`'s Bazel platform."""
    constraints = [
        "@platforms//os:none",
        "@platforms//cpu:armv8-m",
        "//platforms/cpu:" + cpu_constraint(board),
        "//platforms/board:" + board["name"],
    ]
    if board["npu"]:
        constraints.append("//platforms/npu:" + board["npu"]["constraint"])
    return constraints
