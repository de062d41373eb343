"""The table and chart writers on run output written by hand (the lines
run_model prints, with known numbers), and the parsers on random text."""

from __future__ import annotations

import random

import cells
import chart
import pytest
import table

M4 = cells.Target("m4", "cortex-m4", "qemu_an386")
U85 = cells.Target("u85", "ethos-u85-256", "corstone320")

CPU_RUN = """\
== mlperf_tiny:ds_cnn_kws for cortex-m4 on qemu_an386 ==
      .pte: 30,000 bytes
[3/4] Firmware for qemu_an386: text 200,000, data 120, bss 300,000 bytes
      output 0: 12/12 within one quantization step, 11 bit-exact, max difference 1 steps
      CPU instructions: 20,000,000 per inference (QEMU -icount; of which 0 in the NPU calls: copies, cache maintenance, driver)
      memory: program 30,000, planned arena 40,000, runtime arena 9,000 of 20,000 (NPU scratch 0), peak 49,000 bytes
      RAM: total 51,048 bytes = planned arena 40,000 + runtime state 9,000 (the runtime's own share) + stack 2,048 (high-water mark, of 65,536)
      PASS: every output matches the reference (output 0 within one quantization step)
"""

NPU_RUN = """\
      .pte: 60,000 bytes
      inference: 500,000 cycles (0.50 ms at 1000 MHz; Vela's total_cycles)
      output 0: 10/12 within one quantization step, 9 bit-exact, max difference 3 steps
      NPU: Ethos-U85-256 (from its ID/CONFIG registers), 1 job(s); PMU cycle counter 120,000
      CPU instructions: 300,000 per inference (QEMU -icount; of which 80,000 in the NPU calls: copies)
      memory: program 60,000, planned arena 1,000, runtime arena 70,000 of 80,000 (NPU scratch 65,000), peak 71,000 bytes; NPU fast scratch (SRAM) 4,096 bytes
      RAM: total 73,000 bytes = planned arena 1,000 + runtime state 70,000 (the runtime's own share) + stack 2,000 (high-water mark, of 65,536)
      FAIL: output 0: 2 of 12 elements not within one quantization step of the reference
"""

SIZE_A = """\
ds_cnn_kws_m4_firmware.elf  :
section              size        addr
.vectors              448           0
.text              100000         448
.ARM.exidx              8      100448
.data                 120   536870912
.bss                 1952   536871032
.ddr_rodata        31000   553648128
.comment               76           0
Total             133604
"""


def _cells() -> list[table.Cell]:
    cpu = table.Cell("ds_cnn_kws", M4, ["tools/bazel run //bench/mlperf_tiny:ds_cnn_kws_m4"])
    cpu.checks = [table.check("lowered graph", CPU_RUN), table.check("PyTorch", CPU_RUN)]
    cpu.figures = table.cell_figures(CPU_RUN)
    cpu.runtime_text = table.runtime_text_bytes(SIZE_A)
    npu = table.Cell("ds_cnn_kws", U85, ["tools/bazel run //bench/mlperf_tiny:ds_cnn_kws_u85"])
    npu.checks = [table.check("PyTorch", NPU_RUN)]
    npu.figures = table.cell_figures(NPU_RUN)
    return [cpu, npu]


def test_a_cell_reads_its_verdicts_and_figures() -> None:
    cpu, npu = _cells()
    assert cpu.passed and not npu.passed
    assert cpu.checks[0].detail == "12/12 within one quantization step, 11 bit-exact"
    assert npu.checks[0].detail == "output 0: 2 of 12 elements not within one quantization step of the reference"
    assert cpu.runtime_text == 448 + 100000 + 8 + 120  # .ddr_rodata (the embedded blobs) left out
    assert cpu.flash == 30000 + 100576
    assert cpu.ram == 51048
    assert npu.ram == 73000 + 4096  # the NPU's SRAM scratch counts
    assert npu.figures["vela_cycles"] == 500000 and npu.figures["npu_pmu_cycles"] == 120000


def test_the_table_shows_each_figure_and_the_published_ratio() -> None:
    text = table.markdown(_cells(), ["ds_cnn_kws"])
    assert "| ds_cnn_kws | cortex-m4 (qemu_an386) | PASS | 20,000,000 | - | - | 127.5 KiB | 49.9 KiB |" in text
    assert (
        "| ds_cnn_kws | ethos-u85-256 (corstone320) | **FAIL** | 300,000 | 500,000 | 120,000 | - | 75.3 KiB |" in text
    )
    assert (
        "| ds_cnn_kws | cortex-m4 | PASS: 12/12 within one quantization step, 11 bit-exact | "
        "PASS: 12/12 within one quantization step, 11 bit-exact |" in text
    )
    assert "| ds_cnn_kws | ethos-u85-256 | - | **FAIL**: output 0: 2 of 12 elements not within" in text
    # 20 M instructions beside the L4R5ZI's 5.21 M cycles.
    assert "| cortex-m4 | 20.00 M / 5.21 M (3.8x) |" in text
    assert "    tools/bazel run //bench/mlperf_tiny:ds_cnn_kws_u85" in text


def test_a_cell_without_a_run_says_why() -> None:
    broken = table.Cell("ds_cnn_kws", U85, [], error="ERROR: lowering failed: Vela refused it")
    assert not broken.passed
    broken.checks = [table.Check("PyTorch", False, "not run")]
    assert "| ds_cnn_kws | ethos-u85-256 | **ERROR: lowering failed: Vela refused it** |" in table.checks_table(
        [broken]
    )
    assert table.check("x", "no verdict here").detail == table.NO_VERDICT


def test_the_chart_draws_a_bar_per_cell_and_a_tick_per_published_figure() -> None:
    picture = chart.svg(_cells(), ["ds_cnn_kws"])
    assert picture.startswith("<svg ") and picture.endswith("</svg>\n")
    assert picture.count("<rect ") == 2 + 2  # two bars, two legend swatches
    assert ">20.00 M<" in picture and ">0.50 M<" in picture  # CPU instructions, Vela's cycles
    # One published tick (the M4's), at log10(5.21e6) on the 1e4..1e10 axis.
    ticks = [line for line in picture.splitlines() if 'stroke-width="2"' in line and "<line" in line]
    assert len(ticks) == 2  # the M4's tick and the legend's
    assert 'x1="328.3"' in ticks[0]  # 120 px of labels + (log10(5.21e6) - 4) / 6 of the 460 px plot


def test_size_output_without_text_is_refused() -> None:
    with pytest.raises(ValueError, match="no .text section"):
        table.runtime_text_bytes("garbage\n.data 12 0\n")


@pytest.mark.parametrize("seed", range(20))
def test_parsers_take_any_text(seed: int) -> None:
    rng = random.Random(seed)
    pieces = CPU_RUN.splitlines() + NPU_RUN.splitlines() + SIZE_A.splitlines() + ["", "PASS:", ".text x 1", "ESDK"]
    text = "\n".join(
        "".join(rng.choice([line, line[: rng.randrange(len(line) + 1)], chr(rng.randrange(32, 0x2FF))]) for _ in "ab")
        for line in rng.choices(pieces, k=rng.randrange(1, 30))
    )
    table.check("x", text)
    table.cell_figures(text)
    try:
        table.runtime_text_bytes(text)
    except ValueError as e:
        assert "no .text section" in str(e)
