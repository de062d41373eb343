"""esdk_cc_test: one C++ test on the host and, optionally, as firmware on QEMU."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_test")
load("//:defs.bzl", "firmware_image", "firmware_test")

# The closing line of a passing run (unit_test.cc's RunAllTests).
_ALL_PASSED = "^[1-9][0-9]* passed, 0 failed$"

def esdk_cc_firmware(name, srcs, deps):
    """`name`_elf and `name`_firmware: test sources on cc/testing for QEMU's AN547.

    Args:
      name: prefix of the two targets.
      srcs: the test's sources.
      deps: what they test (cc/testing's main is added).
    """
    cc_binary(
        name = name + "_elf",
        testonly = True,
        srcs = srcs,
        tags = ["manual"],  # only buildable for a board; see :<name>_firmware
        deps = deps + ["//cc/testing:unit_test_main"],
    )
    firmware_image(
        name = name + "_firmware",
        testonly = True,
        binary = name + "_elf",
    )

def esdk_cc_test(name, srcs, deps = [], firmware = True, firmware_timeout_seconds = 60, **kwargs):
    """A cc_test `name` on cc/testing and, with `firmware`, `name`_firmware_test.

    The firmware variant builds the same sources for QEMU's AN547 (Cortex-M55)
    and passes when the run ends with "N passed, 0 failed" and exit status 0.

    Args:
      name: the host test; the firmware test is name + "_firmware_test".
      srcs: the test's sources.
      deps: what they test (cc/testing's main is added).
      firmware: also build and run the test as firmware.
      firmware_timeout_seconds: QEMU's limit for the firmware run.
      **kwargs: passed to the cc_test (size, tags, data, ...).
    """
    cc_test(name = name, srcs = srcs, deps = deps + ["//cc/testing:unit_test_main"], **kwargs)
    if not firmware:
        return
    esdk_cc_firmware(name = name, srcs = srcs, deps = deps)
    firmware_test(
        name = name + "_firmware_test",
        expect_exit = 0,
        expect_output = [_ALL_PASSED],
        firmware = name + "_firmware",
        timeout_seconds = firmware_timeout_seconds,
    )
