"""firmware_image(console = ...) picks the console implementation, as the
disassembly of ConsoleWrite shows: semihosting calls newlib's write(); the
UART console stores to the board's UART0 (its text reaching QEMU's serial
port is checked by //examples/hello:hello_uart_test)."""

import re
import subprocess

CONSOLE_WRITE = "_ZN10ethosu_sdk8platform12ConsoleWriteEPKcj"
UART0 = "59303000"


def console_write_disassembly(elf: str) -> str:
    out = subprocess.run(
        ["arm-none-eabi-objdump", "-d", f"--disassemble={CONSOLE_WRITE}", elf],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    body = out.split(f"<{CONSOLE_WRITE}>:", 1)
    assert len(body) == 2, out
    return body[1]


def test_semihosting_console_calls_write() -> None:
    code = console_write_disassembly("examples/hello/firmware.elf")
    assert re.search(r"\bbl\s+\w+ <write>", code), code
    assert UART0 not in code


def test_uart_console_writes_the_uart() -> None:
    code = console_write_disassembly("examples/hello/firmware_uart.elf")
    assert UART0 in code, code
    assert "<write>" not in code
