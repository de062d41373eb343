"""weights = "int4" (ExecuTorch's A8W4 config) against the same model with
int8 weights: the summary says so, and Vela encodes fewer weight bytes.
(The build verified the int4 program bit for bit against the TOSA reference
model; kws_dscnn_u55_128_int4_run_test runs it on QEMU.)"""

import json


def _summary(name: str) -> dict:
    with open(f"tests/aot/{name}.summary.json") as f:
        return json.load(f)


def test_int4_weights_take_fewer_encoded_bytes() -> None:
    int4, int8 = _summary("kws_dscnn_u55_128_int4"), _summary("kws_dscnn_u55_128")
    assert int4["weights"] == "int4" and "weights" not in int8
    assert int4["delegated_operators"] == int8["delegated_operators"]
    bytes4, bytes8 = (s["vela_total"]["npu_encoded_weight_bytes"] for s in (int4, int8))
    # Weights in [-7, 7] compress to about half of int8's (12,928 vs 23,968 bytes on this model).
    assert bytes4 < 0.6 * bytes8, (bytes4, bytes8)
