"""Our runtime's outputs equal ExecuTorch's host runtime on the same .pte.

For every CPU-only test program: run `executorch.runtime` on the program and
its input, then our runner (linked with the program's selected kernels) with
ExecuTorch's outputs as the expected file. Integer outputs must be equal bit
for bit, float outputs within 1e-5 relative (1e-6 absolute near zero); this
is checked here in Python from the runner's DATA records and by the runner's
own COMPARE records. Channels-last programs (input dim order 0,2,3,1) are
compared in memory order, as tensor files and the runner hold them; and the
runner must refuse a channels-last input into a kernel that takes the
default dim order only, and an input file in logical order, with messages
that say so.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import List, Optional

import executorch.kernels.quantized  # noqa: F401  (quantized_decomposed kernels)
import numpy as np
import pytest
import torch
from executorch.runtime import Runtime
from make_programs import EAGER, PROGRAMS, from_memory_order, io_dim_orders, tensor_file, to_memory_order

from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors.tensor_file import read_tensor_file

HERE = Path("tests/runtime")


def executorch_outputs(pte: Path, inputs: List[torch.Tensor]) -> List[torch.Tensor]:
    method = Runtime.get().load_program(str(pte)).load_method("forward")
    return list(method.execute(inputs))


def logical_inputs(pte: Path, inputs_path: Path) -> List[torch.Tensor]:
    """A program's input file as ExecuTorch takes it: tensor files hold
    tensors in memory order; ExecuTorch takes them with their logical sizes
    and the strides of their dim order."""
    input_orders, _ = io_dim_orders(pte.read_bytes())
    return [
        from_memory_order(torch.from_numpy(t.data), order)
        for t, order in zip(read_tensor_file(inputs_path), input_orders)
    ]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_matches_executorch(name: str, tmp_path: Path) -> None:
    pte, inputs_path = HERE / f"{name}.pte", HERE / f"{name}.tensors"
    # Tensor files hold tensors in memory order; ExecuTorch takes and gives
    # tensors with their logical sizes and the strides of their dim order.
    inputs = logical_inputs(pte, inputs_path)
    _, output_orders = io_dim_orders(pte.read_bytes())
    reference = [to_memory_order(o, order).numpy() for o, order in zip(executorch_outputs(pte, inputs), output_orders)]
    expected_path = tmp_path / "expected.tensors"
    expected_path.write_bytes(tensor_file([torch.from_numpy(r) for r in reference]))

    run = subprocess.run(
        [
            str(HERE / f"{name}_runner"),
            f"--pte={pte}",
            f"--input={inputs_path}",
            f"--expected={expected_path}",
            "--iterations=3",
        ],  # outputs of the last run: inputs must survive reuse
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
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


def run_runner(runner: str, pte: str, tensors: Path, expected: Optional[Path] = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(HERE / runner), f"--pte={HERE / pte}", f"--input={tensors}"]
        + ([f"--expected={expected}"] if expected else []),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("name", ["channels_last_f32", "pt2e_channels_last_int8", "channels_last_conv_f32"])
def test_channels_last_programs_keep_their_input_in_channels_last(name: str) -> None:
    # What makes them tests of dim orders: ExecuTorch lowered them without a
    # copy into the default dim order, and the input file is in memory order.
    input_orders, output_orders = io_dim_orders((HERE / f"{name}.pte").read_bytes())
    assert input_orders == output_orders == [[0, 2, 3, 1]]
    (stored,) = read_tensor_file(HERE / f"{name}.tensors")
    assert stored.data.shape[3] == 3  # N, H, W, C


@pytest.mark.parametrize("name", sorted(EAGER))
def test_runs_what_executorch_refuses_as_pytorch_does(name: str) -> None:
    pte, inputs_path = HERE / f"{name}.pte", HERE / f"{name}.tensors"
    inputs = logical_inputs(pte, inputs_path)
    # Why PyTorch is the reference here: ExecuTorch's runtime refuses it.
    with pytest.raises(RuntimeError):
        executorch_outputs(pte, inputs)
    run = run_runner(f"{name}_runner", pte.name, inputs_path, HERE / f"{name}.expected.tensors")
    assert protocol.parse(run.stdout).result == "PASS" and run.returncode == 0, run.stdout[-2000:] + run.stderr


def test_channels_last_input_file_in_logical_order_is_refused(tmp_path: Path) -> None:
    # Sizes [2,3,4,5] as PyTorch lists them: the runner wants [2,4,5,3].
    logical = tmp_path / "logical.tensors"
    logical.write_bytes(tensor_file([torch.zeros(2, 3, 4, 5)]))
    run = run_runner("channels_last_f32_runner", "channels_last_f32.pte", logical)
    assert run.returncode != 0
    assert (
        "ESDK ERROR InvalidArgument instruction=-1 input 0 dtype or shape differs: the file has float32 "
        "(2,3,4,5), the method takes float32 (2,4,5,3) (sizes (2,3,4,5) in dim order (0,2,3,1), listed "
        "in memory order)"
    ) in run.stdout.splitlines()
