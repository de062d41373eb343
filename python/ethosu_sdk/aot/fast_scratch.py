"""The fast scratch (Vela's region 2, the "arena cache") a compiled Ethos-U
model needs, from the same Vela flags the lowering used.

Vela stages data in region 2 only when its memory mode puts the cache in
SRAM and the feature-map arena elsewhere (the Dedicated_Sram modes); the
region is then at most `arena_cache_size` bytes, which the memory mode's
section of the configuration file sets and `--arena-cache-size` overrides.
The payload does not carry that size, so the summary records it for the
firmware build (python/ethosu_sdk/firmware/gen_memory.py).
"""

from __future__ import annotations

import contextlib
import io
import os
from typing import Sequence

_DEFAULTS = {"--config": None, "--system-config": "internal-default", "--memory-mode": "internal-default"}


def _flag_values(flags: Sequence[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for flag in flags:
        name, sep, value = flag.partition("=")
        if sep:
            values[name] = value
    return values


def fast_scratch_bytes(vela_flags: Sequence[str]) -> int:
    """Region-2 bytes a stream compiled with `vela_flags` may use; 0 if none."""
    from ethosu.vela import architecture_features as af

    values = {**_DEFAULTS, **_flag_values(vela_flags)}
    config = values["--config"]
    if config is not None and not os.path.isabs(config):
        config = os.path.join(af.CONFIG_FILES_PATH, config)  # as Vela resolves "Arm/vela.ini"
    arena_cache = values.get("--arena-cache-size")
    # Vela's own reading of its configuration (it prints notes on stdout).
    with contextlib.redirect_stdout(io.StringIO()):
        arch = af.ArchitectureFeatures(
            vela_config_files=[config] if config else None,
            accelerator_config=values["--accelerator-config"],
            system_config=values["--system-config"],
            memory_mode=values["--memory-mode"],
            max_blockdep=af.ArchitectureFeatures.MAX_BLOCKDEP,
            verbose_config=False,
            arena_cache_size=int(arena_cache) if arena_cache is not None else None,
        )
    return int(arch.arena_cache_size) if arch.is_spilling_enabled() else 0
