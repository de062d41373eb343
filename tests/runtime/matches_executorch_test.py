"""Our runtime's outputs equal ExecuTorch's host runtime on the same .pte.

For every CPU-only test program: run `executorch.runtime` on the program and
its input, then our runner (linked with the program's selected kernels) with
ExecuTorch's outputs as the expected file. Integer outputs must be equal bit
for bit, float outputs within 1e-5 relative (1e-6 absolute near zero); this
is checked here in Python from the runner's DATA records and by the runner's
own COMPARE records.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import List

import numpy as np
import pytest
import torch

import executorch.kernels.quantized  # noqa: F401  (quantized_decomposed kernels)
from executorch.runtime import Runtime
from make_programs import PROGRAMS, tensor_file

from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors.tensor_file import read_tensor_file

HERE = Path("tests/runtime")

def executorch_outputs(pte: Path, inputs: List[np.ndarray]) -> List[np.ndarray]:
    method = Runtime.get().load_program(str(pte)).load_method("forward")
    return [o.numpy() for o in method.execute([torch.from_numpy(x) for x in inputs])]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_matches_executorch(name: str, tmp_path: Path) -> None:
    pte, inputs_path = HERE / f"{name}.pte", HERE / f"{name}.tensors"
    inputs = [t.data for t in read_tensor_file(inputs_path)]
    reference = executorch_outputs(pte, inputs)
    expected_path = tmp_path / "expected.tensors"
    expected_path.write_bytes(tensor_file([torch.from_numpy(r) for r in reference]))

    run = subprocess.run(
        [str(HERE / f"{name}_runner"), f"--pte={pte}", f"--input={inputs_path}", f"--expected={expected_path}",
         "--iterations=3"],  # outputs of the last run: inputs must survive reuse
        capture_output=True, text=True, timeout=120, check=False)
    parsed = protocol.parse(run.stdout)
    outputs = parsed.outputs
    assert parsed.result == "PASS" and run.returncode == 0, run.stdout[-2000:] + run.stderr

    assert len(outputs) == len(reference) == len(parsed.comparisons)
    for i, ref in enumerate(reference):
        ours = outputs[i]
        assert ours.dtype == ref.dtype and ours.shape == ref.shape
        if np.issubdtype(ref.dtype, np.floating):
            np.testing.assert_allclose(ours, ref, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(ours, ref)


def test_every_program_is_tested() -> None:
    assert len(PROGRAMS) >= 10
    int_programs = [n for n in PROGRAMS if "int8" in n or "i32" in n]
    assert len(int_programs) >= 4
