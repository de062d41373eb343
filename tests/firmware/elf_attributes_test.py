"""The firmware images are ARM ELF files built for the board's CPU, as the
cross toolchain's own readelf reports them."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from ethosu_sdk.runner import elf_cpu

READELF = "arm-none-eabi-readelf"

# (runfiles path, Tag_CPU_name, Tag_MVE_arch, boot address of the vectors)
IMAGES = [
    ("examples/hello/firmware.elf", "cortex-m55", "MVE Integer and FP", 0x10000000),
    ("examples/hello/firmware_corstone300.elf", "cortex-m55", "MVE Integer and FP", 0x10000000),
    ("examples/hello/firmware_corstone320.elf", "cortex-m85", "MVE Integer and FP", 0x11000000),
    # The Cortex-M33 image: GCC names the architecture (the multilib's
    # objects carry no core name); DSP, no MVE.
    ("examples/hello/firmware_qemu_an505.elf", "8-M.MAIN", "", 0x10000000),
    # The Cortex-M4 and M7 images likewise (Armv7E-M, whose DSP instructions
    # are part of the architecture: no Tag_DSP_extension); both boot from 0.
    ("examples/hello/firmware_qemu_an386.elf", "7E-M", "", 0x00000000),
    ("examples/hello/firmware_qemu_an500.elf", "7E-M", "", 0x00000000),
]

# The FPU each Armv7E-M image may use, as readelf names it: the Cortex-M4's
# single-precision fpv4-sp-d16, the Cortex-M7's double-precision fpv5-d16.
FPUS = [
    ("examples/hello/firmware_qemu_an386.elf", "VFPv4-D16", "SP only"),
    ("examples/hello/firmware_qemu_an500.elf", "FPv5/FP-D16 for ARMv8", None),
]


def readelf(*args: str) -> str:
    return subprocess.run([READELF, *args], check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("path,cpu,mve,vectors", IMAGES)
def test_elf_header_is_32_bit_arm_executable(path: str, cpu: str, mve: str, vectors: int) -> None:
    del cpu, mve
    assert os.path.exists(path), path
    header = readelf("-h", path)
    assert re.search(r"Class:\s+ELF32", header)
    assert re.search(r"Machine:\s+ARM", header)
    assert re.search(r"Type:\s+EXEC", header)
    # The vector table sits at the address the board boots from.
    sections = readelf("-S", path)
    assert re.search(rf"\s\.vectors\s+PROGBITS\s+{vectors:08x}\s", sections), sections


@pytest.mark.parametrize("path,cpu,mve,vectors", IMAGES)
def test_build_attributes_name_the_cpu(path: str, cpu: str, mve: str, vectors: int) -> None:
    del vectors
    attributes = readelf("-A", path)
    assert f'Tag_CPU_name: "{cpu}"' in attributes.replace("Cortex", "cortex"), attributes
    assert "Tag_ABI_VFP_args: VFP registers" in attributes, attributes  # hard float
    if mve:
        assert f"Tag_MVE_arch: {mve}" in attributes, attributes
    elif cpu == "7E-M":
        assert "Tag_MVE_arch" not in attributes and "Tag_CPU_arch: v7E-M" in attributes, attributes
    else:
        assert "Tag_MVE_arch" not in attributes and "Tag_DSP_extension: Allowed" in attributes, attributes


@pytest.mark.parametrize("path,fp_arch,hard_fp_use", FPUS)
def test_armv7e_m_images_use_their_cores_fpu(path: str, fp_arch: str, hard_fp_use: str | None) -> None:
    attributes = readelf("-A", path)
    assert f"Tag_FP_arch: {fp_arch}\n" in attributes, attributes
    if hard_fp_use:
        assert f"Tag_ABI_HardFP_use: {hard_fp_use}" in attributes, attributes
    else:  # single and double precision: the tag's default, not written
        assert "Tag_ABI_HardFP_use" not in attributes, attributes


@pytest.mark.parametrize("path,cpu,mve,vectors", IMAGES)
def test_the_runner_reads_the_same_attributes(path: str, cpu: str, mve: str, vectors: int) -> None:
    # The runner's own reader (it refuses MVE images on boards without MVE)
    # against the toolchain's readelf, the reference here.
    del vectors
    built = elf_cpu.read_cpu_attributes(path)
    assert built is not None
    assert built.cpu == cpu.lower()
    assert built.mve == bool(mve)
