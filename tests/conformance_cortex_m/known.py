"""The SDK's known failures among ExecuTorch's cortex_m cases, by class:
case name (collect.Case.name) -> why it fails here. The sample skips them.
Each is a limit of the SDK's own (bench/RESULTS.md, issue 46)."""

from __future__ import annotations

# The SDK's reference runs ExecuTorch's Python quantized_conv2d, whose
# F.conv2d on int32 torch lacks for a dilated kernel.
DILATED_INT_REFERENCE = "the lowered graph's reference: torch has no int32 dilated convolution"

KNOWN_FAILURES = {
    "ops/test_conv::test_implementation_conv2d[conv2d_dilation]": DILATED_INT_REFERENCE,
}
