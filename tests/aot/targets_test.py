"""Target table: names, memory defaults (as ExecuTorch resolves them), options."""

import pytest

from ethosu_sdk.aot import (
    ALL_TARGETS,
    DEFAULT_MEMORY_CONFIG,
    ETHOS_U_TARGETS,
    InvalidOptionError,
    QuantMode,
    UnknownTargetError,
    resolve_target,
)
from ethosu_sdk.aot.fast_scratch import fast_scratch_bytes
from ethosu_sdk.aot.targets import TargetKind, check_quant_mode, make_compile_spec


@pytest.mark.parametrize("name", ETHOS_U_TARGETS)
def test_every_ethos_u_target_makes_a_compile_spec_with_executorchs_defaults(name):
    from executorch.backends.arm.ethosu import EthosUCompileSpec

    target = resolve_target(name)
    spec = make_compile_spec(target, QuantMode.INT8)
    reference = EthosUCompileSpec(name)  # ExecuTorch's own defaults
    ours = dict(f.split("=", 1) for f in spec.compiler_flags if "=" in f)
    theirs = dict(f.split("=", 1) for f in reference.compiler_flags if "=" in f)
    assert ours["--system-config"] == theirs["--system-config"] == target.system_config
    assert ours["--memory-mode"] == theirs["--memory-mode"] == target.memory_mode
    assert ours["--accelerator-config"] == name
    assert target.system_config, target.memory_mode == DEFAULT_MEMORY_CONFIG[name[:9]]


def test_overrides_reach_vela_flags():
    target = resolve_target("ethos-u85-256", "Ethos_U85_SYS_DRAM_High", "Dedicated_Sram_384KB")
    flags = make_compile_spec(target, QuantMode.INT8).compiler_flags
    assert "--system-config=Ethos_U85_SYS_DRAM_High" in flags
    assert "--memory-mode=Dedicated_Sram_384KB" in flags


def test_unknown_target_lists_the_known_ones():
    with pytest.raises(UnknownTargetError, match="ethos-u85-256"):
        resolve_target("ethos-u99-1")


@pytest.mark.parametrize(
    "target, mode",
    [
        ("TOSA-1.0+FP", QuantMode.INT8),
        ("TOSA-1.0+INT", QuantMode.NONE),
        ("ethos-u55-128", QuantMode.NONE),
        ("cortex-m55", QuantMode.NONE),
        ("cortex-m33", QuantMode.A16W8),
        ("cortex-m4", QuantMode.NONE),
        ("cortex-m7", QuantMode.A16W8),
    ],
)
def test_impossible_quantization_modes_are_rejected(target, mode):
    with pytest.raises(InvalidOptionError):
        check_quant_mode(resolve_target(target), mode)


def test_memory_options_are_rejected_off_ethos_u():
    with pytest.raises(InvalidOptionError):
        resolve_target("cpu", memory_mode="Sram_Only")


def test_target_list_is_complete():
    assert len(ALL_TARGETS) == 11 + 2 + 1 + 5


@pytest.mark.parametrize("name", ["cortex-m55", "cortex-m85", "cortex-m33", "cortex-m4", "cortex-m7"])
def test_cortex_m_targets_have_no_npu_and_no_compile_spec(name):
    target = resolve_target(name)
    assert target.kind is TargetKind.CORTEX_M and target.system_config is None
    check_quant_mode(target, QuantMode.INT8)
    assert make_compile_spec(target, QuantMode.INT8) is None


@pytest.mark.parametrize(
    "name, memory_mode, extra, expected",
    [
        ("ethos-u85-256", None, [], 0),  # Sram_Only: no arena cache
        ("ethos-u85-256", "Dedicated_Sram_384KB", [], 384 * 1024),
        ("ethos-u85-1024", "Dedicated_Sram_512KB", [], 512 * 1024),
        ("ethos-u85-256", "Dedicated_Sram_384KB", ["--arena-cache-size=200000"], 200000),
        ("ethos-u65-256", None, [], 384 * 1024),  # ExecuTorch's U65 default spills
        ("ethos-u55-128", None, [], 0),  # Shared_Sram
    ],
)
def test_fast_scratch_follows_vela_memory_mode(name, memory_mode, extra, expected):
    flags = make_compile_spec(resolve_target(name, memory_mode=memory_mode), QuantMode.INT8).compiler_flags
    assert fast_scratch_bytes(list(flags) + extra) == expected


def test_every_cortex_m_target_names_a_cpu_of_executorchs_cortex_m_backend():
    # aot/cortex_m.py hands each target's CPU to CortexMTargetConfig by name.
    from executorch.backends.cortex_m.target_config import CortexM

    from ethosu_sdk.aot.cortex_m import CORTEX_M_CPUS
    from ethosu_sdk.aot.targets import CORTEX_M_TARGETS

    assert sorted(CORTEX_M_CPUS) == sorted(CORTEX_M_TARGETS)
    for cpu in CORTEX_M_CPUS.values():
        assert isinstance(getattr(CortexM, cpu), CortexM)
