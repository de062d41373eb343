"""Cases the SDK is known to fail (known.py), one per class and operator,
with the cause their verification must name (known_failures_test.py).

(target name, case, NPU, SDK quantization mode, regex of the cause)

Empty while every class left in known.py fails after the verification (a
missing CPU kernel at the firmware's link, a table lookup off PyTorch's
graph on QEMU): a class whose verification names the cause goes here.
"""

EXPECTED_FAILURES = []
