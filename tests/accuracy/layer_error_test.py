"""Per-layer quantization error: the layer built with a wide activation
range is named first, by its PyTorch module; without the wide range it is not."""

from __future__ import annotations

import torch
from sensitive_model import build

from ethosu_sdk.aot import export, quantization
from ethosu_sdk.aot.targets import QuantMode, make_compile_spec, resolve_target
from ethosu_sdk.evaluate import layer_error

SAMPLES = 64
MARGIN_DB = 6.0  # the wide layer at least this much worse than any other


def _rows(gain: float) -> list[dict]:
    model, inputs = build(gain)
    generator = torch.Generator().manual_seed(1)
    samples = [(torch.randn(1, 16, generator=generator),) for _ in range(SAMPLES)]
    mode = QuantMode.parse("int8")
    graph = export.export_for_quantization(model, inputs, False)
    quantized = quantization.quantize(
        graph, make_compile_spec(resolve_target("ethos-u55-128", None, None), mode), mode, samples
    )
    return layer_error.layer_sqnr(model, quantized, samples)


def test_wide_layer_is_named_first():
    rows = _rows(200.0)
    assert [r["module"] for r in rows][0] == "wide", rows
    assert {r["module"] for r in rows} >= {"first.1", "wide", "head"}, rows
    assert rows[0]["module_type"] == "Linear"
    assert rows[1]["sqnr_db"] - rows[0]["sqnr_db"] >= MARGIN_DB, rows
    # The error accumulates: the head, fed the crushed channels, is far from float.
    head = next(r for r in rows if r["module"] == "head")
    assert head["cumulative_sqnr_db"] < head["sqnr_db"], rows
    # Who reads each activation, as WideActivation.forward chains them: head(wide(first(x))).
    readers = {r["module"]: r["consumers"] for r in rows}
    assert readers == {"first.1": ["wide"], "wide": ["head"], "head": []}, rows


def test_without_the_wide_range_the_layer_is_not_singled_out():
    rows = _rows(1.0)
    wide = next(r for r in rows if r["module"] == "wide")
    assert min(r["sqnr_db"] for r in rows) > _rows(200.0)[0]["sqnr_db"] + MARGIN_DB, rows
    assert wide["sqnr_db"] > 20.0, rows  # int8 of a well-scaled tensor keeps ~8 bits
