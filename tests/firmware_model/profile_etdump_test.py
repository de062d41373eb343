"""A CPU-only firmware run's per-instruction profile (PROFILE records of the
board timer's ticks) becomes an ETDump, in nanoseconds (on QEMU -icount:
instructions), that ExecuTorch's devtools Inspector, imported from the
installed wheel, reads back event for event."""

from __future__ import annotations

import pathlib
import re
import subprocess

from executorch.devtools import Inspector
from executorch.devtools.inspector import TimeScale

from ethosu_sdk.runner import etdump

RUNNER = "python/ethosu_sdk/runner/run_firmware"
MODEL = "resnet_blocks_cpu_int8"


def test_inspector_reads_the_profile(tmp_path: pathlib.Path) -> None:
    result = subprocess.run(
        [RUNNER, f"--elf=tests/firmware_model/{MODEL}.elf"], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    profile = etdump.parse(result.stdout)
    assert profile is not None, result.stdout[-3000:]
    instructions = profile.instructions
    assert [i.index for i in instructions] == list(range(len(instructions)))

    path = tmp_path / f"{MODEL}.etdp"
    path.write_bytes(etdump.write(profile))
    # Nanoseconds in, nanoseconds out: each event is its instruction's ticks.
    inspector = Inspector(etdump_path=str(path), source_time_scale=TimeScale.NS, target_time_scale=TimeScale.NS)
    blocks = inspector.event_blocks
    assert [block.name for block in blocks] == ["forward"]
    events = blocks[0].events
    assert [event.name for event in events] == [i.name for i in instructions]
    ns_per_tick = 1_000_000_000 // profile.ticks_per_second
    assert [event.perf_data.raw[0] for event in events] == [float(i.ticks * ns_per_tick) for i in instructions]
    # Operators by their registered names (aten::convolution.out, ...).
    names = {i.name for i in instructions}
    assert any("::" in name for name in names), names

    # Per operator, the slowest first; together they are the run's total
    # (the last TIME record) within 1%.
    operators = etdump.by_operator(profile)
    assert [o.nanoseconds for o in operators] == sorted((o.nanoseconds for o in operators), reverse=True)
    assert sum(o.calls for o in operators) == len(instructions)
    total = profile.nanoseconds(int(re.findall(r"^ESDK TIME \d+ ticks=(\d+)", result.stdout, re.MULTILINE)[-1]))
    assert abs(total - sum(o.nanoseconds for o in operators)) <= 0.01 * total
    print(etdump.table(profile))  # the test log
