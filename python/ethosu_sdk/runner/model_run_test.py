"""model_run.check_outputs against the expected record's tolerance: a
dequantized 16-bit output whose record allows 16 steps (a 16-bit TABLE's
interpolation) passes 16 steps off and fails 17; the same output held to
the default one step fails 2 steps off."""

import numpy as np

from ethosu_sdk.runner import model_run, protocol
from ethosu_sdk.tensors import StoredTensor

SCALE = 1.0 / 32768  # a 16-bit output's step over [-1, 1)


def _run(actual: np.ndarray) -> protocol.Run:
    return protocol.Run(outputs={0: actual}, result="PASS", ended=True)


def _off_by(steps: int) -> tuple[np.ndarray, np.ndarray]:
    expected = (np.arange(-80, 80, dtype=np.float32) * 200 * SCALE).astype(np.float32)
    actual = expected.copy()
    actual[5] += np.float32(steps * SCALE)
    return actual, expected


def test_a_table_output_passes_within_its_sixteen_steps_only() -> None:
    actual, expected = _off_by(16)
    verdict = model_run.check_outputs(_run(actual), [StoredTensor(expected, SCALE, 0, tolerance_steps=16)])
    assert verdict.passed, verdict.reason
    assert "output 0 within 16 quantization steps (" in verdict.reason and "TABLE" in verdict.reason
    actual, expected = _off_by(17)
    verdict = model_run.check_outputs(_run(actual), [StoredTensor(expected, SCALE, 0, tolerance_steps=16)])
    assert not verdict.passed and "1 of 160 elements not within 16 quantization steps" in verdict.reason


def test_the_default_record_keeps_one_step() -> None:
    actual, expected = _off_by(2)
    verdict = model_run.check_outputs(_run(actual), [StoredTensor(expected, SCALE, 0)])
    assert not verdict.passed and "not within one quantization step" in verdict.reason


def test_neighbouring_levels_near_full_scale_are_one_step_apart() -> None:
    # Dequantized in float32, 16-bit levels 30019 and 30020 at this scale lie
    # 1.0024 steps apart: the firmware's float rounding, not a second step.
    scale = np.float32(0.0123)
    expected = (np.arange(30000, 30040, dtype=np.float32) * scale).astype(np.float32)
    actual = ((np.arange(30000, 30040, dtype=np.float32) + 1) * scale).astype(np.float32)
    assert float(np.max(np.abs(actual.astype(np.float64) - expected) / scale)) > 1.002
    verdict = model_run.check_outputs(_run(actual), [StoredTensor(expected, float(scale), 0)])
    assert verdict.passed, verdict.reason
    actual = ((np.arange(30000, 30040, dtype=np.float32) + 2) * scale).astype(np.float32)
    verdict = model_run.check_outputs(_run(actual), [StoredTensor(expected, float(scale), 0)])
    assert not verdict.passed and "40 of 40 elements not within one quantization step" in verdict.reason
