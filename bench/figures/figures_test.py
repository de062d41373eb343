"""The guard's own logic: which way is worse, and what it says."""

from __future__ import annotations

import figures
import pytest

RUN = """\
[1/4] Quantize (PT2E, CortexMQuantizer) and lower
      .pte: 3,999,872 bytes
[3/4] Firmware for qemu_an547: text 4,722,616, data 120, bss 4,092,176 bytes
      output 0: 1000/1000 within one quantization step, 990 bit-exact, max difference 1 steps
      CPU instructions: 128,419,400 per inference (QEMU -icount; of which 0 in the NPU calls: copies)
      memory: program 3,999,872, planned arena 1,509,744, runtime arena 67,744 of 417,792 (NPU scratch 0), \
peak 1,577,488 bytes; NPU fast scratch (SRAM) 0 bytes
"""


def test_parses_every_figure_a_cpu_run_prints() -> None:
    assert figures.parse(RUN) == {
        "pte_bytes": 3999872,
        "firmware_text_bytes": 4722616,
        "bit_exact_outputs": 990,
        "cpu_instructions": 128419400,
        "cpu_instructions_in_npu_calls": 0,
        "planned_arena_bytes": 1509744,
        "runtime_arena_used_bytes": 67744,
        "peak_memory_bytes": 1577488,
    }


def test_more_instructions_is_a_regression_and_fewer_an_improvement() -> None:
    measured = figures.parse(RUN)
    worse = figures.compare("m", measured, {"cpu_instructions": 128419399})
    assert worse.regressions == ["m: cpu_instructions 128,419,399 -> 128,419,400 (+1, +0.0000%)"]
    better = figures.compare("m", measured, {"cpu_instructions": 130000000})
    assert better.regressions == [] and len(better.improvements) == 1


def test_fewer_bit_exact_outputs_is_a_regression() -> None:
    result = figures.compare("m", figures.parse(RUN), {"bit_exact_outputs": 1000})
    assert result.regressions == ["m: bit_exact_outputs 1,000 -> 990 (-10, -1.0000%)"]


def test_a_figure_the_run_stopped_printing_fails() -> None:
    result = figures.compare("m", figures.parse(RUN), {"npu_pmu_cycles": 5})
    assert "no longer prints it" in result.regressions[0]


def test_guard_names_the_file_to_update() -> None:
    with pytest.raises(AssertionError, match=r"bench/figures/baselines.json.*cpu_instructions"):
        figures.guard("m", RUN, {"m": {"cpu_instructions": 1}})


def test_every_recorded_figure_is_one_the_parser_knows() -> None:
    known = {figure.name for figure in figures.FIGURES}
    for run, recorded in figures.load_baselines().items():
        assert set(recorded) <= known, run
