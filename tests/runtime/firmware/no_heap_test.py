"""The core, runtime, kernels and runner code built for Cortex-M55 never allocates
from the heap, throws or uses RTTI: every symbol its object files take from
outside is on a short list of freestanding C functions and compiler helpers.
Checked with the cross toolchain's nm on the archives built for the board."""

from __future__ import annotations

import glob
import re
import subprocess
from typing import Set

NM = "arm-none-eabi-nm"
OURS = re.compile(r"/cc/(core|runtime|kernels|runner|support)/")

# What our code may take from outside: the board interface (platform.h), the
# C library's freestanding functions and the compiler runtime.
ALLOWED = re.compile(
    r"^(_ZN10ethosu_sdk8platform\w+"
    r"|memcpy|memmove|memset|memcmp|strcmp|strncmp|strlen"
    r"|expf|erff|sqrtf|tanhf|nearbyintf"
    # libm's pure functions, float and double, for the portable kernels
    # (cc/kernels/unary_math.cc, binary_math.cc; ldexp: cortex_m/softmax.cc):
    # no heap, no state.
    r"|(a?(sin|cos|tan)h?|atan2|exp|expm1|log|log2|log10|log1p|pow|fmod|erf|sqrt|ldexp)f?"
    r"|__aeabi_\w+|__assert_func)$"
)
FORBIDDEN = re.compile(r"malloc|calloc|realloc|free|_Znw|_Zna|_Zdl|_Zda|__cxa_|_ZTI|_ZTS|__gxx_personality")


def symbols(archive: str, flag: str) -> Set[str]:
    out = subprocess.run([NM, flag, archive], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip() and not line.endswith(":")}


def test_only_freestanding_dependencies() -> None:
    archives = [a for a in glob.glob("**/*.a", recursive=True) if OURS.search("/" + a)]
    assert all(any(f"cc/{part}" in a for a in archives) for part in ("core", "runtime", "kernels")), archives
    defined: Set[str] = set()
    undefined: Set[str] = set()
    for archive in archives:
        defined |= symbols(archive, "--defined-only")
        undefined |= symbols(archive, "-u")
    external = undefined - defined
    assert not [s for s in external | defined if FORBIDDEN.search(s)], sorted(external)
    assert all(ALLOWED.match(s) for s in external), sorted(s for s in external if not ALLOWED.match(s))
