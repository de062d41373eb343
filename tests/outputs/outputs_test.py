"""A model returning a dict of two tensors: the summary names each output by
its key, in torch.export's order, and the build's verification compared each
delegate output with PyTorch's quantized graph (the firmware test compares
each on QEMU)."""

import json

import numpy as np

from ethosu_sdk.tensors import read_tensor_file

STEM = "tests/outputs/dict_head_u85"


def test_outputs_named_by_key() -> None:
    with open(STEM + ".summary.json") as f:
        summary = json.load(f)
    assert [o["name"] for o in summary["outputs"]] == ["boxes", "scores"]
    assert [o["shape"] for o in summary["outputs"]] == [[1, 4, 12, 12], [1, 3]]
    expected = read_tensor_file(STEM + ".expected.tensors")
    assert [t.data.size for t in expected] == [4 * 12 * 12, 3]
    assert all(t.scale > 0 and np.isfinite(t.data).all() for t in expected)


def test_each_output_verified() -> None:
    with open(STEM + ".verification.json") as f:
        report = json.load(f)
    assert report["status"] == "pass", report["summary"]
    outputs = sorted(
        (t["output"], t["elements"])
        for p in report["partitions"]
        for t in p["lowering"]
        if t["output"] is not None and t["note"] is None
    )
    assert outputs == [(0, 4 * 12 * 12), (1, 3)], outputs
    assert all(len(p["outputs"]) == 2 for p in report["partitions"])
