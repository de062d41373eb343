"""Our runtime's outputs equal ExecuTorch's host runtime on the same .pte.

For every CPU-only test program: run `executorch.runtime` on the program and
its input, then our runner (linked with the program's selected kernels) with
ExecuTorch's outputs as the expected file. Integer outputs must be equal bit
for bit, float outputs within 1e-5 relative (1e-6 absolute near zero); this
is checked here in Python from the runner's DATA records and by the runner's
own COMPARE records.
"""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest
import torch

import executorch.kernels.quantized  # noqa: F401  (quantized_decomposed kernels)
from executorch.runtime import Runtime
from make_programs import PROGRAMS, tensor_file

HERE = Path("tests/runtime")

_NUMPY = {0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64, 6: np.float32, 7: np.float64, 11: np.bool_}
_BY_NAME = {"uint8": np.uint8, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
            "float32": np.float32, "float64": np.float64, "bool": np.bool_}


def read_tensor_file(path: Path) -> List[np.ndarray]:
    data = path.read_bytes()
    assert data[:8] == b"ESDKTEN1"
    (count,) = struct.unpack_from("<I", data, 8)
    offset, out = 16, []
    for _ in range(count):
        dtype, rank, *sizes = struct.unpack_from("<II8I", data, offset)
        (nbytes,) = struct.unpack_from("<Q", data, offset + 48)
        start = offset + 56
        out.append(np.frombuffer(data[start:start + nbytes], dtype=_NUMPY[dtype]).reshape(sizes[:rank]).copy())
        offset = start + (nbytes + 7) // 8 * 8
    return out


def parse_protocol(stdout: str) -> Tuple[Dict[int, np.ndarray], List[str], str]:
    """Outputs rebuilt from OUTPUT/DATA records, COMPARE lines, RESULT."""
    headers: Dict[int, Tuple[type, List[int]]] = {}
    words: Dict[int, List[int]] = {}
    compares: List[str] = []
    result = ""
    for line in stdout.splitlines():
        fields = line.split()
        if len(fields) < 2 or fields[0] != "ESDK":
            continue
        if fields[1] == "OUTPUT":
            attrs = dict(f.split("=", 1) for f in fields[3:])
            shape = [] if attrs["shape"] == "scalar" else [int(s) for s in attrs["shape"].split("x")]
            headers[int(fields[2])] = (_BY_NAME[attrs["dtype"]], shape)
            words[int(fields[2])] = []
        elif fields[1] == "DATA":
            index, start = int(fields[2]), int(fields[3])
            assert len(words[index]) == start, "DATA records out of order"
            words[index] += [int(w, 16) for w in fields[4:]]
        elif fields[1] == "COMPARE":
            compares.append(line)
        elif fields[1] == "RESULT":
            result = fields[2]
    outputs = {}
    for index, (dtype, shape) in headers.items():
        bits = np.array(words[index], dtype=f"<u{np.dtype(dtype).itemsize}")
        outputs[index] = bits.view(dtype).reshape(shape)
    return outputs, compares, result


def executorch_outputs(pte: Path, inputs: List[np.ndarray]) -> List[np.ndarray]:
    method = Runtime.get().load_program(str(pte)).load_method("forward")
    return [o.numpy() for o in method.execute([torch.from_numpy(x) for x in inputs])]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_matches_executorch(name: str, tmp_path: Path) -> None:
    pte, inputs_path = HERE / f"{name}.pte", HERE / f"{name}.tensors"
    inputs = read_tensor_file(inputs_path)
    reference = executorch_outputs(pte, inputs)
    expected_path = tmp_path / "expected.tensors"
    expected_path.write_bytes(tensor_file([torch.from_numpy(r) for r in reference]))

    run = subprocess.run(
        [str(HERE / f"{name}_runner"), f"--pte={pte}", f"--input={inputs_path}", f"--expected={expected_path}",
         "--iterations=3"],  # outputs of the last run: inputs must survive reuse
        capture_output=True, text=True, timeout=120, check=False)
    outputs, compares, result = parse_protocol(run.stdout)
    assert result == "PASS" and run.returncode == 0, run.stdout[-2000:] + run.stderr

    assert len(outputs) == len(reference) == len(compares)
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
