"""Public Bazel API of the Ethos-U SDK. Load everything from here:

    load("@ethosu_sdk//:defs.bzl", "firmware_image", "firmware_run", "firmware_test")
    load("@ethosu_sdk//:defs.bzl", "ethosu_model", "ethosu_firmware", "ethosu_run")
"""

load(
    "//tools/rules:firmware.bzl",
    _BOARDS = "BOARDS",
    _FirmwareInfo = "FirmwareInfo",
    _firmware_image = "firmware_image",
    _firmware_run = "firmware_run",
    _firmware_test = "firmware_test",
)
load("//tools/rules:firmware_model.bzl", _ethosu_firmware = "ethosu_firmware")
load(
    "//tools/rules:model.bzl",
    _EthosuModelInfo = "EthosuModelInfo",
    _ethosu_model = "ethosu_model",
)
load("//tools/rules:run.bzl", _ethosu_run = "ethosu_run", _ethosu_run_test = "ethosu_run_test")

BOARDS = _BOARDS
FirmwareInfo = _FirmwareInfo
firmware_image = _firmware_image
firmware_run = _firmware_run
firmware_test = _firmware_test

# PyTorch model -> .pte + reference tensors + summary (tools/rules/model.bzl).
EthosuModelInfo = _EthosuModelInfo
ethosu_model = _ethosu_model

# A board firmware running one ethosu_model (tools/rules/firmware_model.bzl).
ethosu_firmware = _ethosu_firmware

# Run a model's firmware on its board with the full report (tools/rules/run.bzl).
ethosu_run = _ethosu_run
ethosu_run_test = _ethosu_run_test
