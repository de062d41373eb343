"""Cases the SDK is known to fail (known.py), one per class and operator,
with the cause their verification must name (known_failures_test.py).

(target name, case, NPU, SDK quantization mode, regex of the cause)
"""

# U85 CONV3D: Vela sums the kernel's depth slices with convolutions that
# start from the previous slice's accumulators (ACC_INPUT IFM2), which the
# functional model refuses.
_ACC_FROM_IFM2 = "accumulator input from IFM2"

EXPECTED_FAILURES = [
    ("xfail_conv3d_u85", "test_conv3d::test_convolution_3d_u85_INT[2x2_3x2x14x14_nobias,per_channel_quant=True]", "u85", "int8", _ACC_FROM_IFM2),
]
