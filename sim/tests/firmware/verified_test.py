"""The operator models and MobileNetV2 at A16W8 were verified bit-exact
against the TOSA reference model when they were built, not skipped: a
payload the functional NPU model refuses is only reported as skipped by
ethosu_model, so the firmware tests alone would not show it."""

import json
import os

import pytest

# The models this target reads (sim/tests/firmware/BUILD.bazel: the
# operator models everyday, MobileNetV2 at A16W8 in the full tier).
MODELS = os.environ["VERIFIED_MODELS"].split(",")


@pytest.mark.parametrize("name", MODELS)
def test_verified_bit_exact(name: str) -> None:
    path = os.path.join("sim/tests/firmware", name + ".verification.json")
    with open(path) as f:
        report = json.load(f)
    assert report["status"] == "pass", report["summary"]
    for partition in report["partitions"]:
        assert partition["skipped"] is None, partition["skipped"]
        assert partition["outputs"], "no output compared"
        assert all(output["differing"] == 0 for output in partition["outputs"])
        compared = [layer for layer in partition["layers"] if layer["compared"]]
        assert compared and all(layer["differing"] == 0 for layer in compared)
