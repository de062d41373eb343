"""The SDK's known failures among ExecuTorch's cortex_m cases, by class:
case name (collect.Case.name) -> why it fails here. The sample skips them.
Each would be a limit of the SDK's own (bench/RESULTS.md, issue 46).

Empty: the last one, `conv2d_dilation` (the reference's int32 dilated
convolution, which torch lacks), is handled by
python/ethosu_sdk/aot/workarounds/integer_dilated_conv.py."""

from __future__ import annotations

KNOWN_FAILURES: dict[str, str] = {}
