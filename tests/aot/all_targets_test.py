"""Every target lowers the MLP: one delegate of the right backend, compiled
for the requested configuration, with Vela's figures for it. MLP_PROGRAMS
names the Ethos-U configurations built for this run (the everyday tier a
sample, the full tier all of them), each with its lowering's name
(tests/aot/BUILD.bazel: the zoo's MLP where it has one)."""

import json
import os
import struct

import numpy as np
import pytest

from ethosu_sdk.aot.targets import ETHOS_U_TARGETS
from ethosu_sdk.pte import delegate_payload, read_pte, vela_blocks
from ethosu_sdk.tensors import read_tensor_file

ETHOS_U = list(ETHOS_U_TARGETS)  # the one list (targets.py; targets.bzl is generated from it)
PROGRAMS = dict(pair.split("=") for pair in os.environ["MLP_PROGRAMS"].split(","))
BUILT = list(PROGRAMS)
MEMORY = {
    "ethos-u55": ("Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "ethos-u65": ("Ethos_U65_High_End", "Dedicated_Sram_384KB"),
    "ethos-u85": ("Ethos_U85_SYS_DRAM_Mid", "Sram_Only"),
}


def mlp(target: str) -> str:
    return PROGRAMS[target]


def load(name):
    with open(f"tests/aot/{name}.summary.json") as f:
        return json.load(f), read_pte(f"tests/aot/{name}.pte")


def test_every_configuration_is_built_in_some_tier():
    assert set(BUILT) <= set(ETHOS_U) and {t[:9] for t in BUILT} == {t[:9] for t in ETHOS_U}


@pytest.mark.parametrize("target", BUILT)
def test_each_ethos_u_configuration(target):
    summary, program = load(mlp(target))
    (delegate,) = program.plan().delegates
    assert delegate.id == "EthosUBackend"
    assert delegate.compile_specs["target"] == target.encode()
    flags = delegate.compile_specs["compile_flags"].decode()
    system_config, memory_mode = MEMORY[target[:9]]
    assert f"--accelerator-config={target}" in flags
    assert f"--system-config={system_config}" in flags and f"--memory-mode={memory_mode}" in flags
    (vela,) = summary["vela"]
    # Vela names configurations Ethos_U55_128 etc.
    assert vela["accelerator_configuration"].lower().replace("_", "-") == target
    assert vela["npu_cycles"] > 0 and vela["macs"] == summary["vela_total"]["macs"]


def test_larger_u85_configurations_take_fewer_cycles():
    cycles = [load(mlp(t))[0]["vela_total"]["npu_cycles"] for t in ["ethos-u85-128", "ethos-u85-2048"]]
    assert cycles[1] < cycles[0]


def vela_io_element_sizes(payload: bytes, block: str) -> list[int]:
    """Element size of each NPU input/output, from the delegate's `inputs` /
    `outputs` block (layout of executorch's arm_vela.py: i32 count, then per
    tensor 6 x i32 shape, i32 element size, i32 offset, i32 region)."""
    offset = 0
    while offset < len(payload):
        name = payload[offset : offset + 16].split(b"\0", 1)[0].decode()
        (length,) = struct.unpack_from("<I", payload, offset + 16)
        data = payload[offset + 32 : offset + 32 + length]
        if name == block:
            (count,) = struct.unpack_from("<i", data, 0)
            return [struct.unpack_from("<9i", data, 4 + 36 * i)[6] for i in range(count)]
        offset += 32 + (length + 15) // 16 * 16
    raise KeyError(block)


@pytest.mark.parametrize("name", ["mlp_u55_128_a16w8", "mlp_u85_256_a16w8"])
def test_a16w8_runs_int16_activations_on_the_npu(name):
    summary, program = load(name)
    assert summary["quantize"] == "a16w8" and len(program.plan().delegates) == 1
    payload = delegate_payload(open(f"tests/aot/{name}.pte", "rb").read(), program)
    assert vela_blocks(payload)["cmd_data"] > 0
    assert vela_io_element_sizes(payload, "inputs") == [2]
    assert vela_io_element_sizes(payload, "outputs") == [2]
    (x,) = read_tensor_file(f"tests/aot/{name}.input.tensors")
    # Symmetric int16: the input spans far more than int8's 127 steps.
    assert x.zero_point == 0 and 127 < np.abs(x.data).max() / x.scale <= 32767
    int8 = f"tests/aot/{mlp('ethos-u55-128')}.pte"
    assert vela_io_element_sizes(delegate_payload(open(int8, "rb").read(), read_pte(int8)), "inputs") == [1]


def test_tosa_fp_is_float_throughout():
    summary, program = load("mlp_tosa_fp")
    assert [d.id for d in program.plan().delegates] == ["TOSABackend"]
    assert program.plan().kernel_calls == {} and summary["fully_delegated"]
    (y,) = read_tensor_file("tests/aot/mlp_tosa_fp.expected.tensors")
    assert y.scale == 0.0
