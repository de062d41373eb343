"""No firmware contains the functional NPU model: the symbols of every image
(nm, demangled) show the register-level driver and nothing of ethosu_sdk::npu::
(sim/npu)."""

import subprocess

import pytest

NM = "arm-none-eabi-nm"

IMAGES = [
    "examples/mv2_u55_firmware.elf",
    "examples/mv2_u85_firmware.elf",
    "examples/mlp_cpu_firmware.elf",
    "tests/ethosu_driver/mv2_u55_corstone300.elf",
    "tests/ethosu_driver/mv2_u85_corstone320.elf",
]


def symbols(path: str) -> list[str]:
    out = subprocess.run([NM, "-C", path], check=True, capture_output=True, text=True).stdout
    return [line.split(" ", 2)[-1] for line in out.splitlines() if line.strip()]


@pytest.mark.parametrize("path", IMAGES)
def test_no_functional_model_symbols(path: str) -> None:
    names = symbols(path)
    model = [name for name in names if "ethosu_sdk::npu::" in name]
    assert not model, f"{path} links the functional NPU model: {model[:5]}"


@pytest.mark.parametrize("path", IMAGES)
def test_driver_is_linked(path: str) -> None:
    names = symbols(path)
    assert any(name.startswith("ethosu_sdk::drivers::ethosu::Driver::Run(") for name in names), path
