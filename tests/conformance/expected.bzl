"""Cases the SDK is known to fail (known.py), one per class and operator,
with the cause their verification must name (known_failures_test.py).

(target name, case, NPU, quantization label: collect.Case.quantization, regex of the cause)

The classes of known.py that fail after the verification (a missing CPU
kernel at the firmware's link) have no entry: only a class whose
verification names the cause goes here.
"""

EXPECTED_FAILURES = [
    # ExecuTorch faults the lowering check names (issue 34).
    (
        "layer_norm_a16w8_u85_executorch_fault",
        "test_layer_norm::test_native_layer_norm_16a8w_u85_INT[randn_last_dim]",
        "u85",
        "a16w8 io_quantization=set_io",
        # Through its rsqrt TABLE, so under the TABLE's allowance, and still beyond it.
        r"lowering \(TOSA vs PyTorch\).*\(LayerNorm, layer_norm\).*more than 16 steps: a 16-bit TABLE's " +
        r"interpolation \(up to \d+\); a known ExecuTorch fault: .* 16-bit layer_norm",
    ),
    (
        "rsqrt_a16w8_u55_executorch_fault",
        "test_rsqrt::test_rsqrt_16a8w_u55_INT[rand_3d]",
        "u55",
        "a16w8",
        r"lowering \(TOSA vs PyTorch\).*\(Rsqrt, rsqrt\).*more than 16 steps: a 16-bit TABLE's " +
        r"interpolation \(up to \d+\); a known ExecuTorch fault: .* 16-bit rsqrt",
    ),
    (
        "gelu_a16w8_ramp_u85_executorch_fault",
        "test_gelu::test_gelu_a16w8_u85_INT[ramp_none]",
        "u85",
        "a16w8 io_quantization=set_io",
        r"lowering \(TOSA vs PyTorch\).*\(GELU, gelu\).*more than 16 steps: a 16-bit TABLE's " +
        r"interpolation \(up to \d+\); a known ExecuTorch fault: .* 16-bit gelu",
    ),
]
