"""LUTs on the 16-bank (32- and 64-MAC) Ethos-U55s: the small MLP's softmax
takes its tables from the last two SHRAM banks, as on the larger U55s, and
its build-time verification against the TOSA reference model passes (it
was skipped while the model refused LUTs on these configurations)."""

from __future__ import annotations

import json
import pathlib

import pytest


@pytest.mark.parametrize("macs", [32, 64])
def test_softmax_luts_verified(macs: int) -> None:
    report = json.loads(pathlib.Path(f"tests/aot/mlp_ethos_u55_{macs}.verification.json").read_text())
    assert report["status"] == "pass", report["summary"]
    (partition,) = report["partitions"]
    assert partition["outputs"], partition
