"""How each board is simulated: the simulator executable and its flags.

The open boards run on the SDK's own QEMU build, whose Ethos-U device
("ethos-u-npu", qemu/) executes command streams with the functional model (a
shared library the device loads): QEMU's mps3-an547 (Cortex-M55, SSE-300; the
device where Corstone-300 puts the NPU) and the SDK's corstone-320 machine
(Cortex-M85, SSE-320; the Ethos-U85 at Corstone-320's address and IRQ), which
runs the same corstone320 ELF as Arm's FVP. Arm's Corstone FVPs are used where
a user has installed them and asks for them (--fvp; on PATH, or named by an
environment variable); their flags follow the ones Arm's own ExecuTorch flow
passes, and their own Ethos-U runs the firmware's command streams.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from typing import Callable
from ethosu_sdk.errors import SdkError


class SimulatorNotFound(SdkError):
    """The board's simulator is not installed; the message says how to get it."""


class NotAFirmware(SdkError):
    """The image to run is missing or not an ELF file; the message says which."""


def check_firmware(path: str) -> None:
    """Raises NotAFirmware unless `path` is a readable ELF file."""
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError as e:
        raise NotAFirmware(f"cannot read the firmware --elf={path}: {e.strerror}") from e
    if magic != b"\x7fELF":
        raise NotAFirmware(f"--elf={path} is not an ELF file: give the firmware image that firmware_image or "
                           "ethosu_firmware builds")


@dataclasses.dataclass(frozen=True)
class Npu:
    """An Ethos-U configuration: product ("ethos-u85") and MACs per cycle."""
    product: str
    macs: int

    @property
    def name(self) -> str:
        return f"{self.product}-{self.macs}"

    @property
    def title(self) -> str:
        return f"Ethos-{self.product.split('-')[1].upper()}-{self.macs}"


def _runfile(rlocation: str) -> str | None:
    """A file of the runner's runfiles (Bazel), or None outside Bazel."""
    roots = [os.environ.get("RUNFILES_DIR"), os.environ.get("TEST_SRCDIR")]
    # Runfiles are symlinks, so this module's unresolved path lies inside the tree.
    directory = os.path.dirname(os.path.abspath(__file__))
    while directory != os.path.dirname(directory):
        roots.append(directory)
        directory = os.path.dirname(directory)
    for root in roots:
        if root and os.path.exists(os.path.join(root, rlocation)):
            return os.path.join(root, rlocation)
    return None


def _bundled(piece: str) -> str | None:
    """A simulator piece the runner carries in its runfiles (`piece`: a name
    in the generated simulator_paths module), or None outside Bazel."""
    try:
        from ethosu_sdk.runner import simulator_paths  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return _runfile(getattr(simulator_paths, piece))


def default_qemu() -> str | None:
    """The SDK's QEMU build (with the Ethos-U device) from the runfiles."""
    return _bundled("QEMU")


def default_npu_library() -> str | None:
    """The Ethos-U device core QEMU's device loads, from the runfiles."""
    return _bundled("NPU_DEVICE")


_NPU_NAME = re.compile(r"^(ethos-u(?:55|65|85))-(\d+)$")

# Corstone-300's NPU: what the board has when a firmware does not say.
DEFAULT_NPU = Npu("ethos-u55", 128)


def parse_npu(name: str | None) -> Npu | None:
    """"ethos-u85-256" -> Npu; None for targets without an Ethos-U ("cpu", TOSA)."""
    if not name:
        return None
    match = _NPU_NAME.match(name)
    return Npu(match.group(1), int(match.group(2))) if match else None


@dataclasses.dataclass(frozen=True)
class RunOptions:
    elf: str
    npu: Npu | None = None        # the board's Ethos-U (default: the board's own)
    timeout: float = 300.0
    simulator: str | None = None  # the simulator binary (default: the board's own)
    npu_library: str | None = None  # QEMU: the device core (default: from the runfiles)
    never_complete: bool = False    # QEMU: fault injection, the NPU never finishes


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
    # The simulator the SDK itself provides (QEMU from the runfiles), if any.
    bundled: Callable[[], str | None] = lambda: None
    # Whether its NPU is the SDK's device (the functional model), not the
    # simulator's own Ethos-U.
    npu_device: bool = False

    def find_simulator(self, given: str | None = None) -> str:
        from_environment = os.environ.get(self.path_variable)
        configured = from_environment or given or self.bundled()
        if configured:
            if not (os.path.isfile(configured) and os.access(configured, os.X_OK)):
                source = f"{self.path_variable}=" if from_environment else "the simulator "
                fix = (f"unset {self.path_variable} or point it at a {self.simulator}" if from_environment
                       else f"give the path of a {self.simulator}")
                raise SimulatorNotFound(f"{source}{configured} is not an executable file: {fix}")
            return configured
        found = shutil.which(self.simulator)
        if found is None:
            raise SimulatorNotFound(
                f"{self.simulator} not found on PATH (board {self.name}: {self.description}). "
                f"{self.install_hint} Or set {self.path_variable}=/path/to/{self.simulator}.")
        return found

    def command(self, options: RunOptions) -> list[str]:
        """The simulator's command line; raises NotAFirmware or SimulatorNotFound."""
        check_firmware(options.elf)
        return [self.find_simulator(options.simulator), *self.arguments(options)]


# The console: QEMU's stdout, blocking, so a firmware that prints faster
# than the runner reads waits instead of losing bytes. Semihosting writes
# (newlib's stdout is the ":tt" file) go straight to QEMU's file descriptor
# 1 with write(2). QEMU's "stdio" chardev (what -nographic gives the UART)
# makes that descriptor non-blocking, and then every write the full 64 KiB
# pipe refuses is dropped (the firmware only sees a failed write). So no
# stdio chardev: the UART writes to a file chardev on /dev/stdout, a second
# open of the same pipe whose own non-blocking flag leaves descriptor 1
# alone, and the UART already waits for its chardev (its TX-full flag).
# The runner's README says why this and not a file or a memory region.
CONSOLE_ARGUMENTS = (
    "-display", "none",
    "-monitor", "none",
    "-serial", "file:/dev/stdout",
    "-semihosting-config", "enable=on,target=native",
    # The Ethos-U device says why a job faulted (an NPU feature the
    # functional model lacks, a bus error) as a guest error, which QEMU
    # drops unless asked: the driver alone can only name the STATUS bits.
    "-d", "guest_errors",
)


def _qemu_arguments(machine: str, default_npu: Npu) -> Callable[[RunOptions], list[str]]:
    """QEMU's flags for `machine`, its Ethos-U device configured as the
    firmware's NPU (default: the board's own)."""
    def arguments(options: RunOptions) -> list[str]:
        # -icount shift=0,sleep=off: one virtual nanosecond per instruction and
        # no real time leaking in, so the board's timer counts instructions and
        # every run is deterministic.
        args = [
            "-M", machine,
            *CONSOLE_ARGUMENTS,
            "-icount", "shift=0,sleep=off",
        ]
        library = options.npu_library or default_npu_library()
        if library:
            npu = options.npu or default_npu
            args += ["-global", f"ethos-u-npu.library={os.path.abspath(library)}",
                     "-global", f"ethos-u-npu.product={npu.product}",
                     "-global", f"ethos-u-npu.macs={npu.macs}"]
            if options.never_complete:
                args += ["-global", "ethos-u-npu.x-never-complete=on"]
        return args + ["-kernel", options.elf]
    return arguments


def _fvp_arguments(board_prefix: str, cpu: str, npu: str, default_macs: int) -> Callable[[RunOptions], list[str]]:
    def arguments(options: RunOptions) -> list[str]:
        settings = [
            f"{npu}.num_macs={options.npu.macs if options.npu else default_macs}",
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
    description="QEMU mps3-an547 (Cortex-M55, SSE-300)",
    simulator="qemu-system-arm",
    path_variable="ETHOSU_SDK_QEMU",
    install_hint="Run through tools/bazel, whose build root provides QEMU 10.",
    arguments=_qemu_arguments("mps3-an547", DEFAULT_NPU),
    propagates_exit_status=True,
    bundled=default_qemu,
    npu_device=True,
)

# The SDK's own machine (qemu/hw/arm/corstone320.c): Corstone-320's memory map,
# boot ROM and NPU address, so the ELF is the one built for Arm's FVP.
QEMU_CORSTONE320 = Board(
    name="corstone320",
    description="QEMU corstone-320 (Cortex-M85, SSE-320)",
    simulator="qemu-system-arm",
    path_variable="ETHOSU_SDK_QEMU",
    install_hint="Run through tools/bazel, whose build root provides the SDK's QEMU.",
    arguments=_qemu_arguments("corstone-320", Npu("ethos-u85", 256)),
    propagates_exit_status=True,
    bundled=default_qemu,
    npu_device=True,
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

CORSTONE320_FVP = Board(
    name="corstone320",
    description="Arm Corstone-320 FVP (Cortex-M85 + Ethos-U85)",
    simulator="FVP_Corstone_SSE-320",
    path_variable="ETHOSU_SDK_FVP_CORSTONE320",
    install_hint=_FVP_HINT,
    arguments=_fvp_arguments("mps4_board", "mps4_board.subsystem.cpu0",
                             "mps4_board.subsystem.ethosu", 256),
    propagates_exit_status=False,
)

# How each board runs by default: on QEMU where the SDK has a machine for it,
# else on its FVP (Corstone-300's ELF is not the AN547's).
BOARDS = {b.name: b for b in (QEMU_AN547, CORSTONE300, QEMU_CORSTONE320)}
# Arm's FVP of a board, when one is asked for (--fvp, Bazel's --config=fvp).
FVPS = {b.name: b for b in (CORSTONE300, CORSTONE320_FVP)}


def get(name: str, fvp: bool = False) -> Board:
    """The board `name` on its FVP when `fvp` and it has one, else its default."""
    if name not in BOARDS:
        raise ValueError(f"unknown board {name!r}; known boards: {', '.join(sorted(BOARDS))}")
    return FVPS.get(name, BOARDS[name]) if fvp else BOARDS[name]
