"""The same float arithmetic on every x86-64 build host.

Calibration (every scale and zero point), the reference outputs and the
lookup tables a lowering builds all come from float PyTorch and NumPy on the
build host. Both pick their code paths by the CPU they find: ATen's
vectorised kernels (AVX2, AVX-512 or scalar), MKL's BLAS, oneDNN's JIT
kernels (whose blocking also follows the caches' sizes), NNPACK, NumPy's
SIMD loops. Each path sums in its own order and uses its own exp/erf, so two
machines could write different `.pte` bytes for one model (issue 44: a
convolution that cancels exactly on one CPU did not on another).

`pin_environment` (run when `ethosu_sdk` is imported, so before torch or
NumPy compute anything in any SDK process) and `pin_torch` (run by every
stage that computes with torch) fix one path that every x86-64 CPU has:

- ATen at its scalar ("default") capability; torch reads it at its first
  operator, not at import, so setting it late still counts;
- MKL under conditional numerical reproducibility (COMPATIBLE: the code
  path every Intel-compatible CPU runs, results independent of the CPU);
- oneDNN and NNPACK off, so convolutions go through ATen's own im2col and
  MKL's GEMM; oneDNN is also capped at SSE4.1 should anything reach it;
- NumPy's dispatched SIMD loops off (its SSE3 baseline only);
- one thread everywhere: the thread count moves reductions' split points.

`ETHOSU_SDK_HOST_NUMERICS=native` leaves the host's own paths (faster on a
large model, at the price of host-dependent bytes).
"""

from __future__ import annotations

import os
import warnings

OPT_OUT_VARIABLE = "ETHOSU_SDK_HOST_NUMERICS"
NATIVE = "native"

# Every feature NumPy 2.x dispatches on x86 above its SSE3 baseline; names a
# build does not know are ignored.
_NUMPY_DISPATCHED_X86 = (
    "SSSE3 SSE41 POPCNT SSE42 AVX F16C XOP FMA4 FMA3 AVX2 AVX512F AVX512CD AVX512_KNL AVX512_KNM "
    "AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR AVX512_SPR_FP16"
)

ENVIRONMENT: dict[str, str] = {
    "ATEN_CPU_CAPABILITY": "default",
    "MKL_CBWR": "COMPATIBLE",
    "MKL_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "ONEDNN_MAX_CPU_ISA": "SSE41",
    "NPY_DISABLE_CPU_FEATURES": _NUMPY_DISPATCHED_X86,
}

# For the tests: this machine's dispatch capped, standing in for a machine
# with fewer vector units (ATen's scalar kernels, MKL held to SSE4.2, oneDNN
# to SSE4.1, NumPy without AVX). Under the pinning it must change nothing.
OTHER_HOST_STAND_IN: dict[str, str] = {
    "ATEN_CPU_CAPABILITY": "default",
    "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
    "ONEDNN_MAX_CPU_ISA": "SSE41",
    "NPY_DISABLE_CPU_FEATURES": "AVX512F AVX512_SKX AVX2 FMA3 AVX F16C",
}

# ATen's name for the capability above, as torch.backends.cpu reports it.
_TORCH_CAPABILITY = "DEFAULT"


def pinned() -> bool:
    return os.environ.get(OPT_OUT_VARIABLE, "") != NATIVE


def pin_environment() -> None:
    """Overrides the variables above (a caller's own values would make the
    bytes depend on the caller). A no-op under the opt-out."""
    if pinned():
        os.environ.update(ENVIRONMENT)


def pin_torch() -> bool:
    """Sets torch's process-wide switches. Cheap: every stage that computes
    with torch calls it first. False when torch had already run an operator
    on the host's own path before `ethosu_sdk` was imported (a notebook that
    used torch first): the bytes then depend on the host, and a warning says
    so."""
    if not pinned():
        return False
    pin_environment()
    import torch

    torch.backends.mkldnn.enabled = False
    torch.backends.nnpack.set_flags(False)
    torch.set_num_threads(1)
    capability = torch.backends.cpu.get_cpu_capability()
    if capability == _TORCH_CAPABILITY:
        return True
    warnings.warn(
        f"torch ran its {capability} kernels before ethosu_sdk was imported: this process's "
        "programs may differ from other hosts' (import ethosu_sdk before using torch)",
        stacklevel=2,
    )
    return False
