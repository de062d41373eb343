"""//examples:mv2_u85's firmware, the ELF handed to QEMU's corstone-320 and
to Arm's Corstone-320 FVP alike, against the machine's memory map: every
segment inside a memory, the vector table at the boot ROM."""

import os

from machine_map import check_elf, machine_constants


def test_mv2_u85_firmware_fits_the_machine_map():
    check_elf(os.environ["EXAMPLE_FIRMWARE"], machine_constants(os.environ["MACHINE_SOURCE"]))
