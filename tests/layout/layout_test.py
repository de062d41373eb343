"""The NHWC and NCHW twins of feature_net.py on Ethos-U85 and U55.

Both were quantized from the same float model with the same example input;
only the export's input layout differs. So the twins must agree on every
quantization parameter and value, the NHWC files must hold exactly the NCHW
data laid out channels-last (schema/tensor_file.md), the .pte must declare
that layout, and Vela must find less work in the NHWC program (no input or
output transpose)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

from ethosu_sdk.pte import read_pte
from ethosu_sdk.tensors import read_tensor_file

CHANNELS_LAST = [0, 2, 3, 1]
NPUS = ("u85", "u55")


def files(layout: str, npu: str) -> dict:
    base = f"tests/layout/feature_{layout}_{npu}"
    return {
        "summary": json.loads(pathlib.Path(base + ".summary.json").read_text()),
        "input": read_tensor_file(base + ".input.tensors"),
        "expected": read_tensor_file(base + ".expected.tensors"),
        "plan": read_pte(base + ".pte").plan("forward"),
    }


@pytest.mark.parametrize("npu", NPUS)
def test_the_program_declares_its_layout(npu: str) -> None:
    nhwc, nchw = files("nhwc", npu), files("nchw", npu)
    assert nhwc["summary"]["input_layout"] == "nhwc"
    assert [t.dim_order for t in nhwc["plan"].inputs + nhwc["plan"].outputs] == [tuple(CHANNELS_LAST)] * 2
    assert [t.dim_order for t in nchw["plan"].inputs + nchw["plan"].outputs] == [(0, 1, 2, 3)] * 2
    # PyTorch's sizes stay NCHW whatever the memory layout.
    assert nhwc["plan"].inputs[0].sizes == nchw["plan"].inputs[0].sizes == (1, 3, 32, 32)


@pytest.mark.parametrize("npu", NPUS)
@pytest.mark.parametrize("kind", ("input", "expected"))
def test_tensor_files_hold_the_same_values_channels_last(npu: str, kind: str) -> None:
    (nhwc,), (nchw,) = files("nhwc", npu)[kind], files("nchw", npu)[kind]
    assert nchw.data.ndim == 4
    np.testing.assert_array_equal(nhwc.data, nchw.data.transpose(CHANNELS_LAST))
    assert (nhwc.scale, nhwc.zero_point) == (nchw.scale, nchw.zero_point)


@pytest.mark.parametrize("npu", NPUS)
def test_quantization_is_the_same_in_both_layouts(npu: str) -> None:
    nhwc, nchw = files("nhwc", npu)["summary"], files("nchw", npu)["summary"]
    for key in ("inputs", "outputs"):
        assert [(t["scale"], t["zero_point"]) for t in nhwc[key]] == [(t["scale"], t["zero_point"]) for t in nchw[key]]


@pytest.mark.parametrize("npu", NPUS)
def test_vela_schedules_less_work_without_transposes(npu: str) -> None:
    nhwc, nchw = files("nhwc", npu)["summary"]["vela_total"], files("nchw", npu)["summary"]["vela_total"]
    # The convolutions' MACs are the same; the NCHW program adds the
    # transposes' work on top.
    assert nhwc["npu_cycles"] < nchw["npu_cycles"], (nhwc, nchw)
    assert nhwc["macs"] <= nchw["macs"]
