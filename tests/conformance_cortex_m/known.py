"""The SDK's known failures among ExecuTorch's cortex_m cases, by class:
case name (collect.Case.name) -> why it fails here. The sample skips them.
Each is a limit of the SDK's own (bench/RESULTS.md, issue 46)."""

from __future__ import annotations

# A float aten::convolution (ExecuTorch's passes leave a transposed
# convolution the quantizer refuses unquantized) fed channels-last
# activations: the portable convolution takes the default dim order only
# and the firmware refuses the program at load.
FLOAT_CONV_CHANNELS_LAST = "float convolution on channels-last tensors: refused at load"
# The fallback max pool runs the portable max_pool2d_with_indices on int8,
# a dtype our portable kernel does not take.
INT8_MAX_POOL_WITH_INDICES = "portable max_pool2d_with_indices on int8: refused at load"
# A (1, 2, 1, 2) channels-last operand beside a (2, 2, 2, 2) one in dim
# order (0, 3, 2, 1): the portable elementwise kernels take one rank and
# one dim order at a time.
MIXED_DIM_ORDER_BROADCAST = "broadcast between operands of different dim orders: refused at load"
# The SDK's reference runs ExecuTorch's Python quantized_conv2d, whose
# F.conv2d on int32 torch lacks for a dilated kernel.
DILATED_INT_REFERENCE = "the lowered graph's reference: torch has no int32 dilated convolution"

_CONV_TRANSPOSE = "ops/test_conv_transpose::test_implementation_conv_transpose2d"
KNOWN_FAILURES = {
    **{
        f"{_CONV_TRANSPOSE}[conv_transpose2d_{case}]": FLOAT_CONV_CHANNELS_LAST
        for case in (
            "all_params",
            "complex",
            "depthwise",
            "dilation_2",
            "groups_2",
            "output_padding_1",
            "output_padding_asym",
        )
    },
    "ops/test_max_pool2d::test_implementation_max_pool2d_fallback[maxpool_3x3_s2_pad1_ceil]": INT8_MAX_POOL_WITH_INDICES,
    "ops/test_max_pool2d::test_implementation_max_pool2d_fallback[maxpool_dilation]": INT8_MAX_POOL_WITH_INDICES,
    "ops/test_add::test_implementation_add[broadcast_3]": MIXED_DIM_ORDER_BROADCAST,
    "ops/test_mul::test_implementation_mul[broadcast_3]": MIXED_DIM_ORDER_BROADCAST,
    "ops/test_conv::test_implementation_conv2d[conv2d_dilation]": DILATED_INT_REFERENCE,
}
