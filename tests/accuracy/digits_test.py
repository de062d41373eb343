"""//examples:digits_u55_model's accuracy figures against a float top-1 this
test computes itself from scikit-learn's data and PyTorch, and the issue's
bar: the int8 NPU program within one point of float."""

from __future__ import annotations

import json
import os

from digits_split import float_scores, held_out

SUMMARY = os.path.join("examples", "digits_u55_model.summary.json")
MAX_DROP = 0.01  # issue 35: the int8 program within 1 point of float


def _accuracy() -> dict:
    with open(SUMMARY) as f:
        return json.load(f)["accuracy"]


def test_float_top1_is_pytorchs_on_the_held_out_split():
    images, labels = held_out()
    predicted = float_scores(images).argmax(1)
    accuracy = _accuracy()
    assert accuracy["samples"] == len(labels) == 360
    assert accuracy["stages"]["float"]["correct"] == int((predicted == labels).sum())


def test_int8_program_within_one_point_of_float():
    stages = _accuracy()["stages"]
    assert stages["float"]["top1"] > 0.9  # a trained model, not chance (0.1)
    assert stages["program"]["top1"] >= stages["float"]["top1"] - MAX_DROP, stages
    assert stages["quantized"]["top1"] >= stages["float"]["top1"] - MAX_DROP, stages


def test_per_layer_error_names_the_models_modules():
    layers = _accuracy()["layers"]
    # DigitsCnn's quantized outputs: both ReLUs, the pooling, the classifier.
    assert {r["module"] for r in layers} == {"features.1", "features.3", "features.4", "classifier"}
    measured = [r["sqnr_db"] for r in layers if r["sqnr_db"] is not None]
    assert measured == sorted(measured) and measured[0] > 20.0, layers  # worst first; int8 keeps ~8 bits
