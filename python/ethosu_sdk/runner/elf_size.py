"""Section sizes of a firmware image, as the cross toolchain's `size` prints
them (Berkeley format: text includes read-only data, bss all NOLOAD)."""

from __future__ import annotations

import dataclasses
import subprocess


@dataclasses.dataclass(frozen=True)
class ImageSizes:
    text: int
    data: int
    bss: int


def image_sizes(elf: str, size_tool: str = "arm-none-eabi-size") -> ImageSizes:
    """Raises OSError or CalledProcessError when the tool cannot run."""
    out = subprocess.run([size_tool, elf], capture_output=True, text=True, check=True).stdout
    text, data, bss = (int(v) for v in out.splitlines()[1].split()[:3])
    return ImageSizes(text, data, bss)
