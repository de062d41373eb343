"""The runner's FVP launch, checked with a stand-in FVP executable (Arm's FVPs
cannot be installed here): the command line it receives, how the firmware's
status is read from the console, and the message when no FVP is installed.
Without --fvp the corstone320 ELF runs on the SDK's QEMU corstone-320."""

from __future__ import annotations

import os
import pathlib
import stat
import subprocess

import pytest

RUNNER = "python/ethosu_sdk/runner/run_firmware"
ELF_M85 = "examples/hello/firmware_corstone320.elf"
ELF_M55 = "examples/hello/firmware_corstone300.elf"
ELF_AN547 = "examples/hello/firmware.elf"


def make_stand_in(directory: pathlib.Path, name: str, console: str) -> pathlib.Path:
    """An executable that records its argv and prints `console`, as an FVP would."""
    script = directory / name
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{directory}/argv.txt"\nprintf \'{console}\'\nexit 0\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def run_runner(args: list[str], path: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=path)
    return subprocess.run([RUNNER, *args], capture_output=True, text=True, env=env, timeout=60)


def test_corstone320_command_line(tmp_path: pathlib.Path) -> None:
    make_stand_in(tmp_path, "FVP_Corstone_SSE-320", "Hello from corstone320\\nESDK exit 0\\n")
    result = run_runner(
        ["--board=corstone320", "--fvp", f"--elf={ELF_M85}", "--npu=ethos-u85-512", "--timeout=77"],
        f"{tmp_path}:{os.environ['PATH']}",
    )
    assert result.returncode == 0, result.stderr
    assert "Hello from corstone320" in result.stdout
    argv = (tmp_path / "argv.txt").read_text().splitlines()
    settings = [argv[i + 1] for i, a in enumerate(argv) if a == "-C"]
    assert "mps4_board.subsystem.ethosu.num_macs=512" in settings
    assert "mps4_board.subsystem.cpu0.semihosting-enable=1" in settings
    assert "mps4_board.visualisation.disable-visualisation=1" in settings
    assert argv[argv.index("-a") + 1] == ELF_M85
    assert argv[argv.index("--timelimit") + 1] == "77"


def test_corstone300_status_comes_from_the_exit_record(tmp_path: pathlib.Path) -> None:
    make_stand_in(tmp_path, "FVP_Corstone_SSE-300_Ethos-U55", "working\\nESDK exit 5\\n")
    result = run_runner(["--board=corstone300", f"--elf={ELF_M55}"], f"{tmp_path}:{os.environ['PATH']}")
    assert result.returncode == 5, result.stderr
    argv = (tmp_path / "argv.txt").read_text().splitlines()
    assert "ethosu.num_macs=128" in argv
    assert "cpu0.semihosting-enable=1" in argv


def test_missing_exit_record_fails(tmp_path: pathlib.Path) -> None:
    make_stand_in(tmp_path, "FVP_Corstone_SSE-300_Ethos-U55", "crashed silently\\n")
    result = run_runner(["--board=corstone300", f"--elf={ELF_M55}"], f"{tmp_path}:{os.environ['PATH']}")
    assert result.returncode == 1
    assert "without an 'ESDK exit' record" in result.stderr


@pytest.mark.parametrize(
    "board,fvp", [("corstone300", "FVP_Corstone_SSE-300_Ethos-U55"), ("corstone320", "FVP_Corstone_SSE-320")]
)
def test_no_fvp_installed_gives_a_clear_message(tmp_path: pathlib.Path, board: str, fvp: str) -> None:
    result = run_runner([f"--board={board}", "--fvp", f"--elf={ELF_M55}"], "/usr/bin:/bin")
    assert result.returncode == 127
    assert f"{fvp} not found on PATH" in result.stderr
    assert "ETHOSU_SDK_FVP_" in result.stderr


def test_corstone320_runs_on_the_sdk_qemu_without_fvp(tmp_path: pathlib.Path) -> None:
    # An FVP on PATH is not used unless asked for: the same ELF runs on QEMU.
    make_stand_in(tmp_path, "FVP_Corstone_SSE-320", "stand-in FVP\\nESDK exit 0\\n")
    result = run_runner(["--board=corstone320", f"--elf={ELF_M85}"], f"{tmp_path}:{os.environ['PATH']}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "stand-in FVP" not in result.stdout and not (tmp_path / "argv.txt").exists()
    assert "Hello from corstone320" in result.stdout


def test_fvp_flag_leaves_a_qemu_only_board_on_qemu(tmp_path: pathlib.Path) -> None:
    # --config=fvp passes --fvp to every launcher; a board with no FVP keeps QEMU.
    result = run_runner(["--board=qemu_an547", "--fvp", f"--elf={ELF_AN547}"], f"{tmp_path}:{os.environ['PATH']}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Hello from qemu_an547" in result.stdout
