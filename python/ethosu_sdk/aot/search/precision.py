"""The tuner's precision dimension (`aot_compile --accuracy_tolerance=POINTS`,
`ethosu_model(accuracy_tolerance = ...)`): the cheapest precision whose
accuracy stays within a tolerance of the float model.

Every configuration is a whole compilation (compile.py, run by the caller's
`compile_once`; verified against the TOSA reference model where the caller
can) evaluated on the evaluation data; its accuracy is the
compiled program's top-1 on the host runner (the functional NPU model, so
the firmware's), its cost Vela's `total_cycles`. Tried in order:
  1. int8 everywhere, whose per-layer quantization error
     (evaluate/layer_error.py) ranks the layers;
  2. 16-bit activations on the k worst layers, k = 1 .. PRECISION_MAX_LAYERS
     (tuning_config.py): each layer and the modules that read its output get
     ExecuTorch's A16W8 config by module name, so the activation is carried in
     16 bits from producer to consumer (a consumer left int8 would quantize
     it back to 8 bits on its input);
  3. A16W8 everywhere.
The choice is the lowest total_cycles among those within the tolerance
(ties: the earlier in that order, the fewer 16-bit layers); every trial goes
into the summary's `precision_tuning`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Optional, Sequence

from ethosu_sdk.aot.errors import InvalidOptionError
from ethosu_sdk.tuning_config import PRECISION_MAX_LAYERS, Precision

# Top-1 is a ratio of whole samples: compare in points with this slack so a
# drop of exactly the tolerance is within it, whatever the float rounding.
POINTS_EPSILON = 1e-9


@dataclasses.dataclass
class Outcome:
    """One trial's compilation, as the search reads it from its summary."""

    precision: Precision
    summary: Mapping[str, Any]

    @property
    def accuracy(self) -> Mapping[str, Any]:
        return self.summary["accuracy"]

    @property
    def top1(self) -> float:
        return float(self.accuracy["stages"]["program"]["top1"])

    @property
    def total_cycles(self) -> Optional[int]:
        cycles = (self.summary.get("vela_total") or {}).get("total_cycles")
        return int(cycles) if cycles is not None else None


def check_request(tolerance_points: float, eval_dir: Optional[str], host_runner: Optional[str], quantize: str) -> None:
    """A clear error where the precision tuner cannot run."""
    if tolerance_points < 0:
        raise InvalidOptionError(f"--accuracy_tolerance must be >= 0 points of top-1, got {tolerance_points:g}")
    if not eval_dir:
        raise InvalidOptionError(
            "--accuracy_tolerance measures top-1 against the float model: it needs --eval_data=DIR "
            "(labelled samples, python/ethosu_sdk/evaluate/dataset.py)"
        )
    if not host_runner:
        raise InvalidOptionError(
            "--accuracy_tolerance runs each program on the host runner: give --host_runner=PATH "
            "(//sim/host:host_runner)"
        )
    if quantize != "int8":
        raise InvalidOptionError(
            f"--accuracy_tolerance chooses between int8 and A16W8 itself: leave --quantize at int8, not {quantize}"
        )


def layer_configurations(layers: Sequence[Mapping[str, Any]]) -> list[Precision]:
    """The per-layer configurations: 16-bit activations on the k worst layers
    (the summary's `accuracy.layers`, worst first; lossless ones skipped)
    and their consumers, k = 1 .. PRECISION_MAX_LAYERS; one configuration per
    distinct set of modules."""
    lossy = [row for row in layers if row.get("sqnr_db") is not None]
    found: list[Precision] = []
    for k in range(1, min(PRECISION_MAX_LAYERS, len(lossy)) + 1):
        chosen = [str(row["module"]) for row in lossy[:k]]
        modules = set(chosen)
        for row in lossy[:k]:
            modules.update(str(m) for m in row.get("consumers", ()))
        precision = Precision("int8", tuple(chosen), tuple(sorted(modules)))
        if not found or found[-1].modules != precision.modules:
            found.append(precision)
    return found


def within(outcome: Outcome, float_top1: float, tolerance_points: float) -> bool:
    return 100.0 * (float_top1 - outcome.top1) <= tolerance_points + POINTS_EPSILON


def search(
    tolerance_points: float,
    compile_once: Callable[[Precision], Mapping[str, Any]],
    progress: Callable[[str], None],
) -> tuple[Precision, dict[str, Any]]:
    """Compiles and evaluates each configuration (`compile_once` returns the
    compilation's summary); returns the choice and the summary's
    `precision_tuning` entry. An error when no configuration is within the
    tolerance."""
    outcomes: list[Outcome] = []

    def trial(precision: Precision) -> Outcome:
        progress(f"precision: compiling with {precision.describe()}")
        outcome = Outcome(precision, compile_once(precision))
        outcomes.append(outcome)
        progress(f"precision: {precision.describe()}: top-1 {100 * outcome.top1:.2f}%, {outcome.total_cycles} cycles")
        return outcome

    int8 = trial(Precision("int8"))
    float_top1 = float(int8.accuracy["stages"]["float"]["top1"])
    for precision in layer_configurations(int8.accuracy.get("layers") or []):
        trial(precision)
    trial(Precision("a16w8"))

    fitting = [i for i, o in enumerate(outcomes) if within(o, float_top1, tolerance_points)]
    entry: dict[str, Any] = {
        "accuracy_tolerance_points": tolerance_points,
        "float_top1": float_top1,
        "trials": [_row(o, float_top1, tolerance_points) for o in outcomes],
        "chosen": None,
    }
    if not fitting:
        best = max(outcomes, key=lambda o: o.top1)
        raise InvalidOptionError(
            f"no precision tried keeps top-1 within {tolerance_points:g} points of float "
            f"({100 * float_top1:.2f}%): the best, {best.precision.describe()}, reaches "
            f"{100 * best.top1:.2f}%; raise --accuracy_tolerance"
        )
    chosen = min(fitting, key=lambda i: (_cycles_key(outcomes[i]), i))
    entry["chosen"] = chosen
    return outcomes[chosen].precision, entry


def _cycles_key(outcome: Outcome) -> float:
    return float("inf") if outcome.total_cycles is None else float(outcome.total_cycles)


def _row(outcome: Outcome, float_top1: float, tolerance_points: float) -> dict[str, Any]:
    program = outcome.accuracy["stages"]["program"]
    return {
        "quantize": outcome.precision.quantize,
        "layers": list(outcome.precision.layers),
        "a16w8_modules": list(outcome.precision.modules),
        "top1": program["top1"],
        "correct": program["correct"],
        "samples": program["samples"],
        "quantized_top1": outcome.accuracy["stages"].get("quantized", {}).get("top1"),
        "drop_points": round(100.0 * (float_top1 - outcome.top1), 4),
        "within_tolerance": within(outcome, float_top1, tolerance_points),
        "total_cycles": outcome.total_cycles,
        "npu_cycles": (outcome.summary.get("vela_total") or {}).get("npu_cycles"),
        "pte_bytes": outcome.summary["pte"]["size_bytes"],
        # The trial's program against the TOSA reference model, where the
        # caller verifies trials (compile.py's verify_trial); else null.
        "verification": outcome.summary.get("trial_verification"),
    }
