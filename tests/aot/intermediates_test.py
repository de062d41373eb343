"""Intermediates of an Ethos-U compilation: the TOSA graph Vela compiled (run
by the TOSA reference model against the PyTorch quantized graph) and Vela's
reports (which the summary must quote)."""

import csv
import glob
import json
import os

import numpy as np
import torch
import tosa_reference_model
from torch.ao.quantization.fx import _decomposed  # noqa: F401  registers quantized_decomposed ops

from ethosu_sdk.tensors import read_tensor_file

BASE = "tests/aot/kws_dscnn_u55_128_with_intermediates"
DIR = BASE + ".intermediates"


def test_requesting_intermediates_does_not_change_the_pte():
    with open(BASE + ".pte", "rb") as a, open("tests/aot/kws_dscnn_u55_128.pte", "rb") as b:
        assert a.read() == b.read()


def test_files_are_there():
    names = sorted(os.listdir(DIR))
    assert "partition0.tosa" in names and "delegation.txt" in names and "vela_report.txt" in names
    assert glob.glob(f"{DIR}/partition0_vela_*per-layer.csv")


def test_summary_quotes_velas_summary_csv():
    with open(BASE + ".summary.json") as f:
        summary = json.load(f)
    (path,) = glob.glob(f"{DIR}/partition0_vela_*_summary_*.csv")
    with open(path, newline="") as f:
        row = next(csv.DictReader(f))
    figures = summary["vela"][0]
    assert figures["npu_cycles"] == int(float(row["cycles_npu"]))
    assert figures["macs"] == int(float(row["nn_macs"]))
    assert row["accelerator_configuration"] == "Ethos_U55_128"


def test_the_tosa_graph_vela_compiled_matches_the_quantized_graph():
    with open(f"{DIR}/partition0.tosa", "rb") as f:
        tosa = f.read()
    (x,) = read_tensor_file(BASE + ".input.tensors")
    (expected,) = read_tensor_file(BASE + ".expected.tensors")

    def quantize(values, t):
        return torch.ops.quantized_decomposed.quantize_per_tensor(
            torch.from_numpy(values), t.scale, t.zero_point, -128, 127, torch.int8
        ).numpy()

    outputs, status = tosa_reference_model.run(tosa, [quantize(x.data, x)])
    assert status == tosa_reference_model.GraphStatus.TOSA_VALID, status
    got = np.asarray(outputs[0]).astype(np.int32).reshape(expected.data.shape)
    steps = np.abs(got - quantize(expected.data, expected).astype(np.int32))
    print(f"U55 TOSA graph: {np.mean(steps == 0):.2%} bit-exact, max {steps.max()} step(s)")
    assert steps.max() <= 1
