"""firmware_tests: one firmware binary imaged and tested on several boards."""

load(":firmware.bzl", "firmware_image", "firmware_test")

def firmware_tests(name, binary, boards, **kwargs):
    """`name`_firmware<suffix> and `name`_firmware<suffix>_test per board.

    Args:
      name: prefix of the targets.
      binary: the cc_binary to image (tagged manual: only buildable for a board).
      boards: (board, suffix) pairs; a suffix tells the targets apart ("" for one).
      **kwargs: passed to each firmware_test (expect_exit, expect_output, ...).
    """
    for board, suffix in boards:
        firmware_image(
            name = name + "_firmware" + suffix,
            binary = binary,
            board = board,
        )
        firmware_test(
            name = name + "_firmware" + suffix + "_test",
            firmware = ":" + name + "_firmware" + suffix,
            **kwargs
        )
