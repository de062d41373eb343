"""A network on the NPU model, layer by layer, against the TOSA reference model.

The case (sim/tests/npu:<NPU_CASE>.*) is one ExecuTorch Arm lowering: the Vela
payload, Vela's debug database (which command-stream offset starts which
layer, and the TOSA tensor it produces), the TOSA graph, and the input. The
NPU model runs the payload and records every operation's output; the TOSA
reference model computes every tensor of the graph. Every layer must match
bit for bit; otherwise the test prints, per layer, how many elements differ
and the histogram of (model - reference), and fails.
"""

import functools
import os
import subprocess
from typing import Dict, List, Optional, Tuple

import numpy as np

from ethosu_sdk.tensors import read_tensor_file
from ethosu_sdk.verify.compare import LayerResult, compare_layers, format_table
from ethosu_sdk.verify.layer_trace import read_trace
from ethosu_sdk.verify.tosa_tensors import num_inputs, reference_tensors
from ethosu_sdk.verify.vela_debug_db import read_layers, read_placements

CASE = "sim/tests/npu/" + os.environ["NPU_CASE"]
MIN_LAYERS = int(os.environ["MIN_LAYERS"])
CASE_RUNNER = "sim/host/npu_run"


@functools.lru_cache(maxsize=None)
def reference() -> Dict[str, np.ndarray]:
    """Every tensor of the TOSA graph, computed once for all runs here."""
    with open(CASE + ".tosa", "rb") as f:
        graph = f.read()
    inputs = [t.data for t in read_tensor_file(CASE + ".tensors")[: num_inputs(graph)]]
    return reference_tensors(graph, inputs)


def run(tmp_path, inject: Optional[int] = None) -> Tuple[List[LayerResult], int, str]:
    trace = str(tmp_path / "layers.trace")
    argv = [CASE_RUNNER, CASE + ".payload", CASE + ".tensors", "--trace=" + trace]
    if inject is not None:
        argv.append(f"--inject={inject}")
    proc = subprocess.run(argv, capture_output=True, text=True)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # 1: outputs differ
    db = CASE + ".debug.xml"
    results = compare_layers(read_layers(db), read_trace(trace), reference(), read_placements(db))
    return results, proc.returncode, proc.stdout


def test_every_layer_is_bit_exact(tmp_path):
    results, returncode, log = run(tmp_path)
    table = format_table(results)
    print(log + table)
    assert all(r.ok for r in results), "\n" + table
    assert sum(r.exact for r in results) >= MIN_LAYERS, f"expected at least {MIN_LAYERS} layers"
    assert returncode == 0, log


def test_a_planted_fault_is_reported_in_its_layer(tmp_path):
    # Plant the fault in a one-operation layer a third of the way in.
    clean, _, _ = run(tmp_path)
    target = next(i for i in range(len(clean) // 3, len(clean)) if clean[i].exact and clean[i].operations == 1)
    operation = sum(r.operations for r in clean[:target])
    results, _, log = run(tmp_path, inject=operation)
    table = format_table(results)
    print(log + table)
    first_bad = next(i for i, r in enumerate(results) if not r.ok)
    assert first_bad == target, "\n" + table
    assert sum(results[target].histogram.values()) == 1, "one element changed by one step"
    assert set(results[target].histogram) <= {-1, 1}
    if target + 1 < len(results):
        assert any(not r.exact for r in results[target + 1 :]), "the fault should reach later layers"
