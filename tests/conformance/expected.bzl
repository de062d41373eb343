"""Cases the SDK is known to fail (known.py), one per class and operator,
with the cause their verification must name (known_failures_test.py).

(target name, case, NPU, SDK quantization mode, regex of the cause)
"""

# Bool delegate inputs: the verification skips the partition.
_BOOL_INPUTS = "not an integer tensor"

EXPECTED_FAILURES = [
    ("xfail_logical_and_u85", "test_logical::test_logical_and_u85_INT[rand_rank2]", "u85", "int8", _BOOL_INPUTS),
]
