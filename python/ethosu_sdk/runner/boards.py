"""How each board is simulated: the simulator executable and its flags.

QEMU's mps3-an547 is the open default. Arm's Corstone FVPs are used where a
user has installed them (on PATH, or named by an environment variable); their
flags follow the ones Arm's own ExecuTorch flow passes.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from typing import Callable


class SimulatorNotFound(Exception):
    """The board's simulator is not installed; the message says how to get it."""


@dataclasses.dataclass(frozen=True)
class RunOptions:
    elf: str
    npu_macs: int | None = None  # MAC configuration of an FVP's Ethos-U
    timeout: float = 300.0


@dataclasses.dataclass(frozen=True)
class Board:
    name: str
    description: str
    simulator: str             # executable name looked up on PATH
    path_variable: str         # environment variable that may name it instead
    install_hint: str
    arguments: Callable[[RunOptions], list[str]]
    # Whether the simulator's own exit status is the firmware's. FVPs end with
    # 0 whatever the firmware returned: the runner reads the console instead.
    propagates_exit_status: bool

    def find_simulator(self) -> str:
        configured = os.environ.get(self.path_variable)
        if configured:
            if not (os.path.isfile(configured) and os.access(configured, os.X_OK)):
                raise SimulatorNotFound(f"{self.path_variable}={configured} is not an executable file")
            return configured
        found = shutil.which(self.simulator)
        if found is None:
            raise SimulatorNotFound(
                f"{self.simulator} not found on PATH (board {self.name}: {self.description}). "
                f"{self.install_hint} Or set {self.path_variable}=/path/to/{self.simulator}.")
        return found

    def command(self, options: RunOptions) -> list[str]:
        return [self.find_simulator(), *self.arguments(options)]


def _qemu_an547_arguments(options: RunOptions) -> list[str]:
    # -icount shift=0,sleep=off: one virtual nanosecond per instruction and no
    # real time leaking in, so the board's timer counts instructions and every
    # run is deterministic.
    return [
        "-M", "mps3-an547",
        "-nographic",
        "-monitor", "none",
        "-semihosting-config", "enable=on,target=native",
        "-icount", "shift=0,sleep=off",
        "-kernel", options.elf,
    ]


def _fvp_arguments(board_prefix: str, cpu: str, npu: str, default_macs: int) -> Callable[[RunOptions], list[str]]:
    def arguments(options: RunOptions) -> list[str]:
        settings = [
            f"{npu}.num_macs={options.npu_macs or default_macs}",
            f"{board_prefix}.visualisation.disable-visualisation=1",
            f"{board_prefix}.telnetterminal0.start_telnet=0",
            f"{board_prefix}.uart0.out_file='-'",
            f"{board_prefix}.uart0.unbuffered_output=1",
            f"{cpu}.semihosting-enable=1",
            f"{cpu}.semihosting-stack_base=0",
            f"{cpu}.semihosting-heap_limit=0",
            f"{npu}.extra_args='--fast'",
        ]
        args: list[str] = []
        for setting in settings:
            args += ["-C", setting]
        return args + ["-a", options.elf, "--timelimit", str(int(options.timeout))]
    return arguments


_FVP_HINT = ("Arm's Corstone FVPs are a separate download from Arm's developer site; "
             "install one and put it on PATH.")

QEMU_AN547 = Board(
    name="qemu_an547",
    description="QEMU mps3-an547 (Cortex-M55, SSE-300), Ethos-U functional model",
    simulator="qemu-system-arm",
    path_variable="ETHOSU_SDK_QEMU",
    install_hint="Run through tools/bazel, whose build root provides QEMU 10.",
    arguments=_qemu_an547_arguments,
    propagates_exit_status=True,
)

CORSTONE300 = Board(
    name="corstone300",
    description="Arm Corstone-300 FVP (Cortex-M55 + Ethos-U55)",
    simulator="FVP_Corstone_SSE-300_Ethos-U55",
    path_variable="ETHOSU_SDK_FVP_CORSTONE300",
    install_hint=_FVP_HINT,
    arguments=_fvp_arguments("mps3_board", "cpu0", "ethosu", 128),
    propagates_exit_status=False,
)

CORSTONE320 = Board(
    name="corstone320",
    description="Arm Corstone-320 FVP (Cortex-M85 + Ethos-U85)",
    simulator="FVP_Corstone_SSE-320",
    path_variable="ETHOSU_SDK_FVP_CORSTONE320",
    install_hint=_FVP_HINT,
    arguments=_fvp_arguments("mps4_board", "mps4_board.subsystem.cpu0",
                             "mps4_board.subsystem.ethosu", 256),
    propagates_exit_status=False,
)

BOARDS = {b.name: b for b in (QEMU_AN547, CORSTONE300, CORSTONE320)}


def get(name: str) -> Board:
    if name not in BOARDS:
        raise ValueError(f"unknown board {name!r}; known boards: {', '.join(sorted(BOARDS))}")
    return BOARDS[name]
