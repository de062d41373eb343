"""Stage 1 of compile_model: the options checked, before any work, and
resolved into what the later stages read (a `Request`)."""

from __future__ import annotations

import dataclasses
import os
import tempfile
from typing import Any, Optional

from ethosu_sdk.aot import integer_io, layout
from ethosu_sdk.aot.errors import InvalidOptionError
from ethosu_sdk.aot.options import CompileOptions
from ethosu_sdk.aot.search import tuner
from ethosu_sdk.aot.targets import QuantMode, Target, TargetKind, check_quant_mode, make_compile_spec, resolve_target
from ethosu_sdk.firmware import board_memory

OUTPUT_SUFFIXES = (".pte", ".input.tensors", ".expected.tensors", ".summary.json")


@dataclasses.dataclass(frozen=True)
class Request:
    options: CompileOptions
    paths: dict[str, str]  # output suffix -> path
    output_dir: str
    mode: QuantMode
    target: Target  # as asked for; the tuner may choose another configuration
    compile_spec: Any  # ExecuTorch's compile spec of `target` (None on a Cortex-M)
    io_mode: integer_io.IoMode
    input_layout: layout.InputLayout  # as asked for; cortex_m and the tuner may change it
    board: Optional[board_memory.BoardMemory]
    budget_bytes: int  # the tuner's SRAM budget; 0 without --tune


def output_paths(pte_path: str) -> dict[str, str]:
    if not pte_path.endswith(".pte"):
        raise InvalidOptionError(f"--output must name a .pte file, got {pte_path!r}")
    stem = pte_path[: -len(".pte")]
    return {suffix: stem + suffix for suffix in OUTPUT_SUFFIXES}


def check(options: CompileOptions, output_pte: str) -> Request:
    """Every option checked against the others and the output directory
    tried, so a mistake fails now, not after minutes of lowering."""
    paths = output_paths(output_pte)
    mode = QuantMode.parse(options.quantize)
    target = resolve_target(options.target, options.system_config, options.memory_mode)
    check_quant_mode(target, mode)
    io_mode = _check_io(options, mode)
    _check_quantizer_options(options, mode, target)
    input_layout = layout.InputLayout.parse(options.input_layout)
    board = _board(options.board)
    budget_kib = options.sram_budget_kib or (board.sram_bytes // tuner.KIB if board else None)
    budget_bytes = tuner.check_request(target, budget_kib) if options.tune else 0
    if mode is QuantMode.NONE and (
        options.calibration_dir or options.calibration_files or options.calibration_preprocess
    ):
        raise InvalidOptionError("calibration data needs a quantized compilation (--quantize=int8 or a16w8)")
    output_dir = check_output_dir(output_pte)
    try:
        tempfile.TemporaryDirectory(prefix=".aot-", dir=output_dir).cleanup()
    except OSError as e:
        raise InvalidOptionError(f"cannot write to output directory {output_dir!r}: {e.strerror}") from e
    compile_spec = make_compile_spec(target, mode)  # validates Vela's options
    return Request(options, paths, output_dir, mode, target, compile_spec, io_mode, input_layout, board, budget_bytes)


def check_output_dir(output_pte: str) -> str:
    """The directory the outputs go to, which must exist."""
    output_dir = os.path.dirname(os.path.abspath(output_pte))
    if not os.path.isdir(output_dir):
        raise InvalidOptionError(f"output directory {output_dir!r} does not exist")
    return output_dir


def _check_io(options: CompileOptions, mode: QuantMode) -> integer_io.IoMode:
    """--io, checked against the options it cannot go with."""
    io_mode = integer_io.IoMode.parse(options.io)
    if io_mode is integer_io.IoMode.INT8:
        if mode is not QuantMode.INT8:
            raise InvalidOptionError(f"--io=int8 needs --quantize=int8 (got --quantize={mode.value}): use --io=float")
        if options.eval_dir:
            raise InvalidOptionError("--eval_data feeds float samples: it needs --io=float")
    return io_mode


def _check_quantizer_options(options: CompileOptions, mode: QuantMode, target: Target) -> None:
    """--weights=int4, --noper_channel, --io_quantization and --quantizer_setup: settings of
    ExecuTorch's Arm quantizer, for its targets only (cortex_m has its own)."""
    asked = [
        flag
        for flag, differs in (
            ("--weights=int4", options.weights != "int8"),
            ("--noper_channel", not options.per_channel),
            (f"--io_quantization={options.io_quantization}", options.io_quantization != "operators"),
            (f"--quantizer_setup={options.quantizer_setup}", options.quantizer_setup is not None),
        )
        if differs
    ]
    if not asked:
        return
    if options.weights != "int8" and mode is not QuantMode.INT8:
        raise InvalidOptionError(f"--weights=int4 needs --quantize=int8 (A8W4), got --quantize={mode.value}")
    if mode is QuantMode.NONE:
        raise InvalidOptionError(f"{asked[0]} needs a quantized compilation (--quantize=int8 or a16w8)")
    if target.kind not in (TargetKind.ETHOS_U, TargetKind.TOSA):
        raise InvalidOptionError(
            f"{asked[0]} sets the Arm quantizer of the Ethos-U and TOSA targets, not {target.name}: leave it out"
        )


def _board(name: Optional[str]) -> Optional[board_memory.BoardMemory]:
    if not name:
        return None
    if name not in board_memory.BOARD_MEMORY:
        raise InvalidOptionError(f"unknown board {name!r}; boards: {', '.join(sorted(board_memory.BOARD_MEMORY))}")
    return board_memory.BOARD_MEMORY[name]
