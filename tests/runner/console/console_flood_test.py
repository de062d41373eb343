"""Every console byte reaches the runner, in order, when its reader is slow.

QEMU's stdio chardev makes the pipe to the runner non-blocking; a console
that writes into it without flow control loses whatever does not fit once
the runner lags 64 KiB behind. Each firmware here prints a numbered flood of
lines while the runner's line callback sleeps: the runner must still return
every line, and pass each to the callback.
"""

from __future__ import annotations

import time

import pytest

from ethosu_sdk.runner import boards, simulate

PAYLOAD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"  # console_flood.cc's
# Sleep this long every LINES_PER_PAUSE lines: the runner falls far behind a
# firmware that prints megabytes in about a second.
PAUSE_SECONDS = 0.25
LINES_PER_PAUSE = 4096  # 256 KiB, four times the pipe


def expected_lines(count: int) -> list[str]:
    return [f"flood {i:08x} {PAYLOAD}\n" for i in range(count)] + ["flood done\n"]


@pytest.mark.parametrize(
    "image, lines",
    [
        ("tests/runner/console/flood_semihosting.elf", 65536),
        ("tests/runner/console/flood_uart.elf", 16384),
    ],
)
def test_slow_reader_loses_nothing(image: str, lines: int) -> None:
    seen: list[str] = []

    def slow_echo(line: str) -> None:
        if len(seen) % LINES_PER_PAUSE == 0:
            time.sleep(PAUSE_SECONDS)
        seen.append(line)

    command = boards.BOARDS["qemu_an547"].command(boards.RunOptions(elf=image, timeout=240))
    status, output = simulate.run(command, 240, echo=slow_echo)
    assert status == 0
    want = expected_lines(lines)
    got = [line for line in output.splitlines(keepends=True) if line.startswith("flood")]
    assert len(got) == len(want), f"{len(want) - len(got)} of {len(want)} lines lost"
    first_wrong = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), None)
    assert first_wrong is None, f"line {first_wrong}: {got[first_wrong]!r}, expected {want[first_wrong]!r}"
    assert [line for line in seen if line.startswith("flood")] == want
