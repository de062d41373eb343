"""esdk_cc_test: one C++ test on the host and, optionally, as firmware on QEMU."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_test")
load("//:defs.bzl", "firmware_image", "firmware_test")

# The closing line of a passing run (unit_test.cc's RunAllTests).
_ALL_PASSED = "^[1-9][0-9]* passed, 0 failed$"

def esdk_cc_firmware(name, srcs, deps, boards = ["qemu_an547"]):
    """`name`_elf and `name`_firmware: test sources on cc/testing for QEMU's AN547.

    Args:
      name: prefix of the targets.
      srcs: the test's sources.
      deps: what they test (cc/testing's main is added).
      boards: the first gets `name`_firmware, each other `name`_<board>_firmware.
    """
    cc_binary(
        name = name + "_elf",
        testonly = True,
        srcs = srcs,
        tags = ["manual"],  # only buildable for a board; see :<name>_firmware
        deps = deps + ["//cc/testing:unit_test_main"],
    )
    for i, board in enumerate(boards):
        firmware_image(
            name = name + ("_firmware" if i == 0 else "_%s_firmware" % board),
            testonly = True,
            binary = name + "_elf",
            board = board,
        )

def esdk_cc_test(
        name,
        srcs,
        deps = [],
        firmware = True,
        firmware_timeout_seconds = 60,
        firmware_boards = ["qemu_an547"],
        **kwargs):
    """A cc_test `name` on cc/testing and, with `firmware`, `name`_firmware_test.

    The firmware variant builds the same sources for QEMU's AN547 (Cortex-M55)
    and passes when the run ends with "N passed, 0 failed" and exit status 0.

    Args:
      name: the host test; the firmware test is name + "_firmware_test".
      srcs: the test's sources.
      deps: what they test (cc/testing's main is added).
      firmware: also build and run the test as firmware.
      firmware_timeout_seconds: QEMU's limit for the firmware run.
      firmware_boards: boards to run on; beyond the first (`name`_firmware_test),
        each gets `name`_<board>_firmware_test (qemu_an505: the Cortex-M33).
      **kwargs: passed to the cc_test (size, tags, data, ...).
    """
    cc_test(name = name, srcs = srcs, deps = deps + ["//cc/testing:unit_test_main"], **kwargs)
    if not firmware:
        return
    esdk_cc_firmware(name = name, srcs = srcs, deps = deps, boards = firmware_boards)
    for i, board in enumerate(firmware_boards):
        infix = "" if i == 0 else "_" + board
        firmware_test(
            name = name + infix + "_firmware_test",
            expect_exit = 0,
            expect_output = [_ALL_PASSED],
            firmware = name + infix + "_firmware",
            timeout_seconds = firmware_timeout_seconds,
        )
