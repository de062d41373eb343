"""A compiled model's run on a board, judged and measured: outputs against the
reference (PyTorch's quantized graph), top-k classes, instructions, memory."""

from __future__ import annotations

import dataclasses

import numpy as np

from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors import tensor_file

# Under QEMU with -icount shift=0 one instruction takes 1 ns of board time.
NANOSECONDS_PER_SECOND = 1_000_000_000


# Float outputs that are not quantized: the runner protocol's float rule.
RELATIVE_TOLERANCE = 1e-5
ABSOLUTE_FLOOR = 1e-6
# Beyond a quantized output's tolerance: a thousandth of a step, plus the
# float32 rounding of the two dequantized values (a relative 2^-24 each,
# counted as 2^-23): neighbouring 16-bit levels near full scale lie up to
# 1.0024 steps apart in float32. The firmware's Compare allows the same.
DEQUANTIZE_SLACK = 0.001
FLOAT32_ROUNDING = float(np.finfo(np.float32).eps)
# Why an expected output allows more than one step: the AOT step writes a
# wider tolerance only for a 16-bit output its TOSA graph computes through a
# 16-bit TABLE (ethosu_sdk/tosa_tables.py; not imported: a run needs no TOSA).
TABLE_RULE = "the expected file's allowance for a 16-bit TABLE's interpolation"


@dataclasses.dataclass
class OutputCheck:
    index: int
    elements: int
    bit_exact: int  # elements with identical bits
    within: int  # elements within tolerance: the record's quantization steps, or the float rule
    max_difference: float  # largest difference, in quantization steps (quantized) or absolute
    scale: float  # quantization step of the output (0: not quantized)
    rule: str  # how `within` was judged, in words

    @property
    def passed(self) -> bool:
        return self.within == self.elements


@dataclasses.dataclass
class Verdict:
    passed: bool
    checks: list[OutputCheck]
    reason: str


def check_outputs(run: protocol.Run, expected: list[tensor_file.StoredTensor]) -> Verdict:
    """Every output within its record's quantization steps of the reference
    (one, the rule of the AOT numerics tests, unless the expected file says
    more: a 16-bit TABLE's interpolation); float outputs without a scale
    within the relative bound; other integers equal."""
    if run.errors:
        return Verdict(False, [], "the firmware reported: " + "; ".join(run.errors))
    if not run.ended:
        return Verdict(False, [], "the firmware ended before its report was complete")
    if len(run.outputs) != len(expected):
        return Verdict(False, [], f"{len(run.outputs)} outputs printed, {len(expected)} expected")
    checks: list[OutputCheck] = []
    for index, reference in enumerate(expected):
        actual = run.outputs.get(index)
        want = np.asarray(reference.data)
        if actual is None or actual.shape != want.shape or actual.dtype != want.dtype:
            return Verdict(False, checks, f"output {index}: shape or dtype differs from the reference")
        diff = np.abs(actual.astype(np.float64) - want.astype(np.float64))
        step = float(reference.scale or 0.0)
        same_bits = np.all(
            actual.reshape(-1).view(np.uint8).reshape(actual.size, -1)
            == want.reshape(-1).view(np.uint8).reshape(want.size, -1),
            axis=1,
        )
        bit_exact = int(same_bits.sum())
        if step > 0:  # quantized output, dequantized or (integer I/O) not: in quantization steps
            dequantized = np.issubdtype(want.dtype, np.floating)
            measure = diff / step if dequantized else diff
            steps = reference.tolerance_steps
            rule = "within one quantization step" if steps == 1 else f"within {steps} quantization steps ({TABLE_RULE})"
            rounding = (
                (np.abs(actual.astype(np.float64)) + np.abs(want.astype(np.float64))) * FLOAT32_ROUNDING / step
                if dequantized
                else 0.0
            )
            within = int(np.sum(measure <= steps + DEQUANTIZE_SLACK + rounding))
        elif np.issubdtype(want.dtype, np.floating):
            measure, rule = diff, "within 1e-5 relative"
            within = int(np.sum(diff <= RELATIVE_TOLERANCE * np.abs(want) + ABSOLUTE_FLOOR))
        else:  # other integers: exactly
            measure, rule, within = diff, "equal", bit_exact
        checks.append(
            OutputCheck(
                index, int(actual.size), bit_exact, within, float(measure.max()) if measure.size else 0.0, step, rule
            )
        )
    failed = [c for c in checks if not c.passed]
    if failed:
        c = failed[0]
        return Verdict(
            False,
            checks,
            f"output {c.index}: {c.elements - c.within} of {c.elements} elements not {c.rule} of the reference",
        )
    return Verdict(
        True,
        checks,
        "every output matches the reference (" + "; ".join(f"output {c.index} {c.rule}" for c in checks) + ")",
    )


def top_k(values: np.ndarray, k: int = 5) -> list[tuple[int, float]]:
    flat = values.reshape(-1).astype(np.float64)
    order = np.argsort(-flat, kind="stable")[:k]
    return [(int(i), float(flat[i])) for i in order]


@dataclasses.dataclass
class Costs:
    inference_ticks: int
    ticks_per_second: int
    npu_call_ticks: int

    def instructions(self, ticks: int) -> int:
        """Board time as instructions (valid under QEMU's -icount shift=0)."""
        return ticks * NANOSECONDS_PER_SECOND // self.ticks_per_second

    @property
    def cpu_instructions(self) -> int:
        """What the Cortex-M executes per inference: runtime, CPU operators,
        the Ethos-U driver (on QEMU the NPU device itself takes no board time)."""
        return self.instructions(self.inference_ticks)

    @property
    def npu_call_instructions(self) -> int:
        """Of those, the backend's NPU calls: input/output copies, cache
        maintenance, programming the NPU and taking its interrupt."""
        return self.instructions(self.npu_call_ticks)


def costs(run: protocol.Run) -> Costs | None:
    if not run.ticks or not run.ticks_per_second:
        return None
    npu_ticks = int(run.records.get("NPU", {}).get("ticks", 0))
    return Costs(run.ticks[-1], run.ticks_per_second, npu_ticks)


@dataclasses.dataclass
class NpuFigures:
    """The `ESDK NPU` record: what the driver found and its PMU counters."""

    npu: str  # "ethos-u85-256", or "none" when no job ran
    jobs: int
    cycles: int  # PMCCNTR summed over the jobs
    events: dict[str, int]  # PMU event name -> count


def npu_figures(run: protocol.Run) -> NpuFigures | None:
    record = run.records.get("NPU")
    if not record or "jobs" not in record:
        return None
    events = {key.removeprefix("pmu_"): int(value) for key, value in record.items() if key.startswith("pmu_")}
    return NpuFigures(record.get("npu", "none"), int(record["jobs"]), int(record.get("cycles", 0)), events)
