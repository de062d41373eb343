"""A console that breaks the line protocol ends `run_model` (ethosu_run) in
one clear error line and status 2, never a Python traceback: the case of a
console that lost bytes ("DATA out of order")."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import numpy as np

from ethosu_sdk.tensors import tensor_file

RUN_MODEL = "python/ethosu_sdk/cli/run_model"

# Output 0 announces 8 elements; the second DATA line starts at element 6
# where 4 were printed: the bytes between were lost.
BROKEN_CONSOLE = (
    "\\n".join(
        [
            "ESDK BEGIN",
            "ESDK OUTPUT 0 dtype=int8 shape=8",
            "ESDK DATA 0 0 01 02 03 04",
            "ESDK DATA 0 6 07 08",
            "ESDK RESULT DONE",
            "ESDK END",
        ]
    )
    + "\\n"
)


# A summary as aot_compile writes it (aot/options.py's Summary): run_model
# reads every key, so a partial one is refused before the run.
_SUMMARY = {
    "model": "m",
    "target": "cpu",
    "quantize": "none",
    "io": "float",
    "seed": 0,
    "calibration_samples": 0,
    "calibration": None,
    "input_layout": "nchw",
    "board": None,
    "system_config": None,
    "memory_mode": None,
    "vela_flags": [],
    "tuning": None,
    "a16w8_modules": [],
    "precision_tuning": None,
    "vela_workarounds": [],
    "lowering_workarounds": [],
    "fast_scratch_bytes": None,
    "tosa_spec": None,
    "pte": {"file": "m.pte", "size_bytes": 1, "sha256": "0" * 64},
    "delegates": [],
    "fully_delegated": False,
    "delegated_operators": {},
    "cpu_operators": {},
    "pte_kernel_calls": {},
    "inputs": [],
    "outputs": [{"name": "output0", "shape": [8], "dim_order": [0], "scale": 0.0, "zero_point": 0}],
    "vela": [],
    "vela_total": {},
    "format_version": 1,
}


def test_protocol_error_is_one_line(tmp_path: pathlib.Path) -> None:
    simulator = tmp_path / "qemu-stand-in"
    simulator.write_text(f"#!/bin/sh\nprintf '{BROKEN_CONSOLE}'\nexit 0\n")
    simulator.chmod(0o755)
    elf = tmp_path / "fake.elf"
    elf.write_bytes(b"\x7fELF" + bytes(60))
    summary = tmp_path / "m.summary.json"
    summary.write_text(json.dumps(_SUMMARY))
    expected = tmp_path / "m.expected.tensors"
    tensor_file.write_tensor_file(expected, [np.arange(8, dtype=np.int8)])
    env = dict(os.environ, ETHOSU_SDK_QEMU=str(simulator))
    result = subprocess.run(
        [
            RUN_MODEL,
            f"--elf={elf}",
            f"--summary={summary}",
            f"--expected={expected}",
            f"--report_dir={tmp_path}/report",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, result.stderr
    assert errors[0].startswith(
        "run_model: error: the firmware's console output is not a well-formed run (line 4: DATA out of order)"
    ), errors[0]
