"""Cases the SDK is known to fail (known.py), one per class and operator,
with the cause their verification must name (known_failures_test.py).

(target name, case, NPU, SDK quantization mode, regex of the cause)
"""

_ELEMENTWISE = "elementwise mode|not an integer tensor"

EXPECTED_FAILURES = [
    ("xfail_gt_tensor_u85", "test_gt::test_gt_tensor_u85_INT[gt_tensor_rank2_rand]", "u85", "int8", _ELEMENTWISE),
    ("xfail_ge_tensor_u85", "test_ge::test_ge_tensor_u85_INT[ge_tensor_rank2_rand]", "u85", "int8", _ELEMENTWISE),
    ("xfail_le_tensor_u85", "test_le::test_le_tensor_u85_INT[le_tensor_rank2_rand]", "u85", "int8", _ELEMENTWISE),
    ("xfail_sign_u85", "test_sign::test_sign_u85_INT[mixed_signs]", "u85", "int8", _ELEMENTWISE),
    ("xfail_bitwise_not_u85", "test_bitwise_not::test_bitwise_not_u85_INT[pattern1_int8]", "u85", "int8", _ELEMENTWISE),
    ("xfail_logical_and_u85", "test_logical::test_logical_and_u85_INT[rand_rank2]", "u85", "int8", _ELEMENTWISE),
    ("xfail_lshift_scalar_u55", "test_lshift::test_bitwise_left_shift_scalar_u55_INT[randint_neg_100_int16]", "u55", "int8", _ELEMENTWISE),
]
