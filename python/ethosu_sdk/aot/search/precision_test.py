"""The precision search's order and choice on hand-written compilation
summaries (the end-to-end run on a real model: tests/accuracy/precision_test.py)."""

from __future__ import annotations

from typing import Any

import pytest

from ethosu_sdk.aot.errors import InvalidOptionError
from ethosu_sdk.aot.search import precision
from ethosu_sdk.tuning_config import Precision

# Worst first, as layer_error sorts them; `relu` lost nothing.
LAYERS: list[dict[str, Any]] = [
    {"module": "wide", "sqnr_db": 3.0, "consumers": ["head"]},
    {"module": "relu", "sqnr_db": None, "consumers": ["wide"]},
    {"module": "first", "sqnr_db": 30.0, "consumers": ["wide"]},
    {"module": "head", "sqnr_db": 35.0, "consumers": []},
    {"module": "tail", "sqnr_db": 40.0, "consumers": []},
]


def test_layer_configurations_add_the_next_worst_layer_and_its_readers() -> None:
    found = precision.layer_configurations(LAYERS)
    assert [(p.layers, p.modules) for p in found] == [
        (("wide",), ("head", "wide")),
        (("wide", "first"), ("first", "head", "wide")),
        # k = 3 adds `head`, already 16-bit as wide's reader: no new configuration.
    ]
    assert all(p.quantize == "int8" for p in found)


def _summary(correct: int, cycles: int, float_correct: int = 10) -> dict[str, Any]:
    stages = {
        "float": {"correct": float_correct, "samples": 10, "top1": float_correct / 10},
        "program": {"correct": correct, "samples": 10, "top1": correct / 10},
    }
    return {
        "accuracy": {"stages": stages, "layers": LAYERS},
        "vela_total": {"total_cycles": cycles, "npu_cycles": cycles // 2},
        "pte": {"size_bytes": 1000},
    }


# top-1 out of 10 samples and cycles per configuration, by description.
FIGURES = {
    "int8 everywhere": (7, 100),
    "int8, 16-bit activations at wide (A16W8 modules: head, wide)": (9, 130),
    "int8, 16-bit activations at wide, first (A16W8 modules: first, head, wide)": (10, 120),
    "A16W8 everywhere": (10, 200),
}


def _run(tolerance: float) -> tuple[Precision, dict[str, Any], list[str]]:
    tried: list[str] = []

    def compile_once(choice: Precision) -> dict[str, Any]:
        tried.append(choice.describe())
        return _summary(*FIGURES[choice.describe()])

    chosen, entry = precision.search(tolerance, compile_once, lambda _: None)
    return chosen, entry, tried


def test_every_configuration_is_tried_and_the_fastest_within_tolerance_kept() -> None:
    chosen, entry, tried = _run(10.0)
    assert tried == list(FIGURES)
    # 9/10 is 10 points below float: within a 10-point tolerance, and the
    # per-layer configurations beat A16W8 everywhere; the two-layer one is
    # faster than the one-layer one here, so it is chosen.
    assert chosen.layers == ("wide", "first")
    assert [t["within_tolerance"] for t in entry["trials"]] == [False, True, True, True]
    assert entry["chosen"] == 2
    assert [t["total_cycles"] for t in entry["trials"]] == [100, 130, 120, 200]
    assert [t["drop_points"] for t in entry["trials"]] == [30.0, 10.0, 0.0, 0.0]


def test_a_loose_tolerance_keeps_int8() -> None:
    chosen, entry, _ = _run(30.0)
    assert chosen == Precision("int8") and entry["chosen"] == 0


def test_nothing_within_tolerance_is_one_clear_error() -> None:
    def compile_once(choice: Precision) -> dict[str, Any]:
        return _summary(5, 100)

    with pytest.raises(InvalidOptionError, match=r"no precision tried keeps top-1 within 1 points of float"):
        precision.search(1.0, compile_once, lambda _: None)


@pytest.mark.parametrize(
    "args, message",
    [
        ((-1.0, "eval", "runner", "int8"), "must be >= 0"),
        ((1.0, None, "runner", "int8"), "needs --eval_data"),
        ((1.0, "eval", None, "int8"), "--host_runner"),
        ((1.0, "eval", "runner", "a16w8"), "leave --quantize at int8"),
    ],
)
def test_bad_requests(args, message) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        precision.check_request(*args)
