"""State that persists across calls: our runtime against ExecuTorch's.

Each program keeps mutable buffers (register_buffer updated in place: a
counter, a recurrent state, a buffer with a non-zero initial state, a cache
written at a position input). ExecuTorch's host runtime (`executorch.runtime`)
loads the method once and makes the sequence of calls; our host runner does
the same from one tensor file (a set of inputs per call) and must give every
call's outputs: integers bit for bit, floats within 1e-5 relative. A bad
position gets one error line and leaves the state untouched.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import List

import numpy as np
import pytest
import torch
from make_stateful_programs import CACHE_LENGTH, PROGRAMS, sequence_file
from sequence_reference import executorch_sequence

from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors.tensor_file import encode, read_tensor_file

HERE = Path("tests/stateful")
RUNNER = Path("sim/host/host_runner")


def _inputs(name: str) -> List[torch.Tensor]:
    return [torch.from_numpy(t.data.copy()) for t in read_tensor_file(HERE / f"{name}.tensors")]


def _per_call(name: str) -> int:
    return 2 if name == "position_cache_f32" else 1


def _run(name: str, inputs: Path, expected: Path | None = None) -> protocol.Run:
    args = [str(RUNNER), f"--pte={HERE / name}.pte", f"--input={inputs}"]
    if expected is not None:
        args.append(f"--expected={expected}")
    run = subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)
    parsed = protocol.parse(run.stdout)
    parsed.exit_status = run.returncode
    return parsed


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_sequence_matches_executorch(name: str, tmp_path: Path) -> None:
    pte = str(HERE / f"{name}.pte")
    reference = executorch_sequence(pte, _inputs(name), _per_call(name))
    expected = tmp_path / "expected.tensors"
    expected.write_bytes(encode([r.numpy() for r in reference]))

    run = _run(name, HERE / f"{name}.tensors", expected)
    assert run.result == "PASS" and run.exit_status == 0, run.errors
    # One COMPARE per output of every call, each in order.
    assert [c.index for c in run.comparisons] == list(range(len(reference)))
    for i, ref in enumerate(reference):
        ours = run.outputs[i]
        assert ours.dtype == ref.numpy().dtype and ours.shape == tuple(ref.shape)
        if ref.is_floating_point():
            np.testing.assert_allclose(ours, ref.numpy(), rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(ours, ref.numpy())


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_state_changes_the_outputs(name: str) -> None:
    """The sequences exercise state: after the first call, a method freshly
    loaded for each call gives other outputs than the one carrying state."""
    pte, inputs, per_call = str(HERE / f"{name}.pte"), _inputs(name), _per_call(name)
    carried = executorch_sequence(pte, inputs, per_call)
    fresh = [
        executorch_sequence(pte, inputs[first : first + per_call], per_call)[0]
        for first in range(0, len(inputs), per_call)
    ]
    assert torch.equal(carried[0], fresh[0])
    assert not any(torch.equal(c, f) for c, f in zip(carried[1:], fresh[1:]))


def test_position_past_the_cache_is_one_error(tmp_path: Path) -> None:
    """A position past the cache: one error naming the index, nothing
    written (the calls before it still match ExecuTorch)."""
    generator = torch.Generator().manual_seed(5)
    calls = [(torch.randn(1, 4, generator=generator), torch.tensor([p])) for p in (0, 1, CACHE_LENGTH)]
    inputs = tmp_path / "calls.tensors"
    inputs.write_bytes(sequence_file(calls))
    run = _run("position_cache_f32", inputs)
    assert run.result == "ERROR" and run.exit_status == 2
    assert len(run.errors) == 1 and f"index {CACHE_LENGTH} out of range for size {CACHE_LENGTH}" in run.errors[0]
    reference = executorch_sequence(str(HERE / "position_cache_f32.pte"), [t for c in calls[:2] for t in c], 2)
    for i, ref in enumerate(reference):
        np.testing.assert_allclose(run.outputs[i], ref.numpy(), rtol=1e-5, atol=1e-6)


def test_input_count_not_a_multiple_is_refused(tmp_path: Path) -> None:
    inputs = tmp_path / "calls.tensors"
    inputs.write_bytes(encode([np.zeros((1, 4), np.float32)] * 3))
    run = _run("position_cache_f32", inputs)
    assert run.result == "ERROR"
    assert "the file has 3 tensors, the method takes 2 (or a multiple of it" in run.errors[0]
