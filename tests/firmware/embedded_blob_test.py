"""An embedded file reaches the firmware intact, 16-byte aligned, in DDR:
size and CRC-32 printed by the firmware on QEMU and by the host program
(same source, host build) equal Python's zlib on the original file."""

import re
import subprocess
import zlib

SOURCE = "external/_main~python_venv~executorch_files/schema/program.fbs"
RUNNER = "python/ethosu_sdk/runner/run_firmware"
FIRMWARE = "tests/firmware/embedded_blob_crc.elf"
HOST_PROGRAM = "tests/firmware/embedded_blob_crc_host"
LINE = re.compile(r"^blob size=(\d+) crc32=([0-9a-f]{8}) address=0x([0-9a-f]{8,16})$", re.MULTILINE)


def expected() -> tuple[int, int]:
    with open(SOURCE, "rb") as f:
        data = f.read()
    return len(data), zlib.crc32(data)


def parse(output: str) -> tuple[int, int, int]:
    match = LINE.search(output)
    assert match, output
    return int(match[1]), int(match[2], 16), int(match[3], 16)


def test_firmware_on_qemu_sees_the_file() -> None:
    result = subprocess.run(
        [RUNNER, f"--elf={FIRMWARE}", "--expect_exit=0"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    size, crc, address = parse(result.stdout)
    assert (size, crc) == expected()
    assert address % 16 == 0
    assert 0x70000000 <= address < 0x80000000, hex(address)  # DDR (secure alias)


def test_host_build_sees_the_file() -> None:
    result = subprocess.run([HOST_PROGRAM], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    size, crc, address = parse(result.stdout)
    assert (size, crc) == expected()
    assert address % 16 == 0
