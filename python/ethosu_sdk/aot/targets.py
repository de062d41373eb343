"""Compile targets: every Ethos-U configuration, TOSA profiles, and plain CPU.

System config and memory mode defaults are the ones ExecuTorch's
`EthosUCompileSpec` resolves (and hence `aot_arm_compiler.py`): U55 ->
Ethos_U55_High_End_Embedded / Shared_Sram, U65 -> Ethos_U65_High_End /
Dedicated_Sram_384KB, U85 -> Ethos_U85_SYS_DRAM_Mid / Sram_Only. They are
spelled out here so they show in summaries and can be checked by tests.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Optional

from ethosu_sdk.aot.errors import InvalidOptionError, UnknownTargetError

ETHOS_U_TARGETS = (
    "ethos-u55-32",
    "ethos-u55-64",
    "ethos-u55-128",
    "ethos-u55-256",
    "ethos-u65-256",
    "ethos-u65-512",
    "ethos-u85-128",
    "ethos-u85-256",
    "ethos-u85-512",
    "ethos-u85-1024",
    "ethos-u85-2048",
)
TOSA_TARGETS = ("TOSA-1.0+INT", "TOSA-1.0+FP")
CPU_TARGET = "cpu"
# A Cortex-M without an NPU: int8 through ExecuTorch's cortex_m backend
# (CortexMQuantizer, CortexMPassManager; aot/cortex_m.py) onto the SDK's
# cortex_m:: kernels (cc/kernels/cortex_m).
CORTEX_M_TARGETS = ("cortex-m55", "cortex-m85", "cortex-m33", "cortex-m4", "cortex-m7")
ALL_TARGETS = ETHOS_U_TARGETS + TOSA_TARGETS + (CPU_TARGET,) + CORTEX_M_TARGETS

# family -> (system config, memory mode), as EthosUCompileSpec defaults them.
DEFAULT_MEMORY_CONFIG = {
    "ethos-u55": ("Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "ethos-u65": ("Ethos_U65_High_End", "Dedicated_Sram_384KB"),
    "ethos-u85": ("Ethos_U85_SYS_DRAM_Mid", "Sram_Only"),
}

# Extra Vela flags, as aot_arm_compiler passes them: per-operator placement
# and cycle estimates in Vela's report.
VELA_EXTRA_FLAGS = ("--verbose-operators", "--verbose-cycle-estimate")


class TargetKind(enum.Enum):
    ETHOS_U = "ethos-u"
    TOSA = "tosa"
    CPU = "cpu"
    CORTEX_M = "cortex-m"


class QuantMode(enum.Enum):
    INT8 = "int8"  # int8 activations, int8 symmetric per-channel weights
    A16W8 = "a16w8"  # int16 activations, int8 per-channel weights
    NONE = "none"  # float

    @classmethod
    def parse(cls, value: str) -> "QuantMode":
        try:
            return cls(value.lower())
        except ValueError:
            raise InvalidOptionError(
                f"unknown quantize mode {value!r}; choose one of {', '.join(m.value for m in cls)}"
            ) from None


@dataclasses.dataclass(frozen=True)
class Target:
    name: str
    kind: TargetKind
    system_config: Optional[str] = None
    memory_mode: Optional[str] = None
    vela_flags: tuple[str, ...] = ()  # more Vela options (the tuner's choice)

    @property
    def family(self) -> str:
        return self.name[: len("ethos-uNN")] if self.kind is TargetKind.ETHOS_U else self.name


def resolve_target(name: str, system_config: Optional[str] = None, memory_mode: Optional[str] = None) -> Target:
    """Validates a target name and fills in Ethos-U memory defaults."""
    if name in ETHOS_U_TARGETS:
        default_config, default_mode = DEFAULT_MEMORY_CONFIG[name[: len("ethos-uNN")]]
        return Target(name, TargetKind.ETHOS_U, system_config or default_config, memory_mode or default_mode)
    if name not in ALL_TARGETS:
        raise UnknownTargetError(f"unknown target {name!r}; targets: {', '.join(ALL_TARGETS)}")
    if system_config or memory_mode:
        raise InvalidOptionError(f"--system_config/--memory_mode apply to Ethos-U targets only, not {name}")
    if name in CORTEX_M_TARGETS:
        return Target(name, TargetKind.CORTEX_M)
    kind = TargetKind.TOSA if name in TOSA_TARGETS else TargetKind.CPU
    return Target(name, kind)


def check_quant_mode(target: Target, mode: QuantMode) -> None:
    """Rejects combinations a target cannot compile."""
    if target.kind is TargetKind.CORTEX_M and mode is not QuantMode.INT8:
        raise InvalidOptionError(f"{target.name} runs ExecuTorch's cortex_m int8 operators: use --quantize=int8")
    if target.name == "TOSA-1.0+FP" and mode is not QuantMode.NONE:
        raise InvalidOptionError("TOSA-1.0+FP is the float profile: use --quantize=none")
    if target.kind is not TargetKind.CPU and target.name != "TOSA-1.0+FP" and mode is QuantMode.NONE:
        raise InvalidOptionError(f"{target.name} runs integer graphs only: use --quantize=int8 or a16w8")


def tosa_spec_string(target: Target, mode: QuantMode) -> str:
    """TOSA specification a TOSA or CPU target quantizes and lowers for."""
    if target.name == "TOSA-1.0+FP" or (target.kind is TargetKind.CPU and mode is QuantMode.NONE):
        return "TOSA-1.0+FP"
    return "TOSA-1.0+INT+int16" if mode is QuantMode.A16W8 else "TOSA-1.0+INT"


def make_compile_spec(target: Target, mode: QuantMode):
    """ExecuTorch Arm compile spec of a target (a TOSA spec for the CPU target,
    used only to configure the quantizer)."""
    if target.kind is TargetKind.CORTEX_M:
        return None  # the cortex_m backend takes its CPU, not a compile spec (aot/cortex_m.py)
    from executorch.backends.arm.ethosu import EthosUCompileSpec
    from executorch.backends.arm.tosa import TosaSpecification
    from executorch.backends.arm.tosa.compile_spec import TosaCompileSpec

    if target.kind is TargetKind.ETHOS_U:
        try:
            return EthosUCompileSpec(
                target.name,
                system_config=target.system_config,
                memory_mode=target.memory_mode,
                extra_flags=list(VELA_EXTRA_FLAGS) + list(target.vela_flags),
            )
        except Exception as e:  # the spec validates flags and raises plain errors
            raise InvalidOptionError(f"invalid Ethos-U configuration for {target.name}: {e}") from e
    return TosaCompileSpec(TosaSpecification.create_from_string(tosa_spec_string(target, mode)))
