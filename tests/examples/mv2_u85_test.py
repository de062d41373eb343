"""`bazel run //examples:mv2_u85` end to end: MobileNetV2 quantized, lowered
for an Ethos-U85-256, its corstone320 firmware (the ELF Arm's Corstone-320 FVP
runs) driving the Ethos-U85-256 device of the SDK's QEMU corstone-320. The run must
PASS (every output within one quantization step of PyTorch's quantized graph),
print every figure the README promises, in order, and write a report that a
headless browser renders with its charts."""

from __future__ import annotations

import csv
import os
import re
import subprocess

import pytest
import report_layout

RUN = "examples/mv2_u85.sh"

# In the order the run prints them.
FIGURES = [
    r"^\[1/4\] Quantize",
    r"delegates: 1 \(EthosUBackend [\d,]+ B\)",
    r"delegated operators: \d+ \(.*convolution 52",
    r"left on the CPU: dequantize_per_tensor 1, quantize_per_tensor 1$",
    r"\.pte: [\d,]+ bytes",
    # ExecuTorch's run.sh memory for U85: SRAM as the NPU's 384 KiB cache,
    # weights and feature maps in DRAM, so Vela counts memory stalls.
    r"^\[2/4\] Vela's estimate \(Ethos_U85_256, Ethos_U85_SYS_DRAM_Mid, Dedicated_Sram, ",
    r"inference: [\d,]+ cycles \([\d.]+ ms at 1000 MHz; Vela's total_cycles\)",
    r"of which: compute [\d,]+ cycles, memory stalls [1-9][\d,]*$",
    r"MACs: [\d,]+, [\d.]+% of the peak 256 MACs/cycle",
    r"SRAM used: [\d,]+ KiB",
    r"DRAM used: [1-9][\d,]* KiB",
    r"SRAM traffic: [\d,]+ bytes",
    r"DRAM traffic: [1-9][\d,]* bytes",
    # The tuner's choice within the 384 KiB, against run.sh's default.
    r"tuned: NHWC input, Dedicated_Sram, arena cache \d+ KiB, the fastest of \d+ configurations tried within "
    r"384 KiB of SRAM; 0\.\d\dx the cycles of the untuned program \(NCHW input, Dedicated_Sram_384KB\)",
    r"^\[3/4\] Firmware for corstone320: text [\d,]+, data [\d,]+, bss [\d,]+ bytes",
    r"^\[4/4\] Running on QEMU corstone-320 \(Cortex-M85, SSE-320\), Ethos-U85-256 device "
    r"\(the SDK's functional model\)",
    r"top-5: (class \d+ \(-?[\d.]+\)(, )?){5}$",
    r"output 0: 1000/1000 within one quantization step, \d+ bit-exact, max difference [\d.]+ steps",
    r"NPU: Ethos-U85-256 \(from its ID/CONFIG registers\), 1 job\(s\); PMU cycle counter [1-9][\d,]*",
    r"CPU instructions: [\d,]+ per inference",
    r"memory: program [\d,]+, planned arena [\d,]+, runtime arena [\d,]+ of [\d,]+ \(NPU scratch [\d,]+\), "
    r"peak [\d,]+ bytes; NPU fast scratch \(SRAM\) [1-9][\d,]* bytes",
    r"PASS: every output matches the reference \(output 0 within one quantization step\)",
    r"^Report: .*/index\.html$",
]


@pytest.fixture(scope="module")
def run_output() -> str:
    result = subprocess.run([RUN], capture_output=True, text=True, timeout=1500)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return result.stdout


def test_prints_every_figure_in_order(run_output: str) -> None:
    position = 0
    for pattern in FIGURES:
        match = re.compile(pattern, re.MULTILINE).search(run_output, position)
        assert match, f"missing (after position {position}): {pattern}\n{run_output}"
        position = match.end()


def test_no_simulator_noise_between_the_figures(run_output: str) -> None:
    # The board's expected guest errors (runner/boards.py) stay hidden; any
    # other line from the run would show after "| ".
    shown = [line for line in run_output.splitlines() if line.lstrip().startswith("| ")]
    assert shown == [], shown


def test_report_renders_with_its_charts(run_output: str, tmp_path) -> None:
    page = re.search(r"^Report: (.*)$", run_output, re.MULTILINE).group(1)
    assert os.path.exists(page)
    pngs = sorted(f for f in os.listdir(os.path.dirname(page)) if f.endswith(".png"))
    assert pngs == ["mac_utilisation.png", "memory_accesses.png", "npu_cycles.png"]
    dom = subprocess.run(
        [
            "chromium-headless-shell",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            f"--user-data-dir={tmp_path}/chromium",
            "--dump-dom",
            f"file://{page}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    # Set by the page once every chart image has decoded.
    assert 'data-charts-loaded="3"' in dom, dom[-2000:]
    assert "PASS" in dom and "Delegation map" in dom and "Vela" in dom
    # The per-layer table names Vela's layers by their PyTorch modules
    # (torchvision's MobileNetV2 paths), not only by TOSA tensor.
    assert "module (PyTorch)" in dom
    assert re.search(r"<td>features\.\d+\.conv\.\d", dom), "no layer named by its PyTorch module"


def _vela_npu_layers() -> list[str]:
    """The NPU layers as Vela's own per-layer CSV names them (the TOSA tensor each writes)."""
    path = "examples/mv2_u85_model.intermediates/partition0_vela_out_per-layer.csv"
    with open(path, newline="") as f:
        return [row["Name"] for row in csv.DictReader(f) if row["Target"] == "NPU"]


def test_report_fits_1280_pixels_with_one_verification_row_per_npu_layer(run_output: str, tmp_path) -> None:
    page = re.search(r"^Report: (.*)$", run_output, re.MULTILINE).group(1)
    layout = report_layout.measure(page, str(tmp_path), "Verification", width=1280)
    assert layout.window_width == 1280, layout.window_width
    assert layout.scroll_width <= 1280 and not layout.past_right_edge, (layout.scroll_width, layout.past_right_edge[:5])
    tensors = layout.column("TOSA tensor")
    assert len(tensors) == len(set(tensors)), "a layer listed more than once"
    assert sorted(tensors) == sorted(_vela_npu_layers())
