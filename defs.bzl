"""Public Bazel API of the Ethos-U SDK. Load everything from here:

    load("@ethosu_sdk//:defs.bzl", "firmware_image", "firmware_run", "firmware_test")
"""

load(
    "//tools/rules:firmware.bzl",
    _BOARDS = "BOARDS",
    _FirmwareInfo = "FirmwareInfo",
    _firmware_image = "firmware_image",
    _firmware_run = "firmware_run",
    _firmware_test = "firmware_test",
)

BOARDS = _BOARDS
FirmwareInfo = _FirmwareInfo
firmware_image = _firmware_image
firmware_run = _firmware_run
firmware_test = _firmware_test
