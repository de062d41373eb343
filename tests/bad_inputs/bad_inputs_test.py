"""The bad-input catalogue (README.md): each case runs one SDK tool on one bad
input and checks that it ends in exactly one clear line (naming what is wrong
and what to do), the documented exit status, no traceback (unless --verbose)
and no file left behind."""

from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import struct
import subprocess

import pytest

HERE = pathlib.Path("tests/bad_inputs")
KWS = "tests/aot/kws_dscnn_u85_256"  # an Ethos-U85 model with its references
RESNET_CPU = "tests/aot/resnet_blocks_cpu_int8"  # a CPU model of another input shape
CUMPROD = "tests/bad_inputs/cumprod_cpu.pte"  # aten::cumprod.out: in no operator table
RAND_PTE = "tests/bad_inputs/noise_cpu.pte"  # aten::rand.out: refused on the CPU
TOO_LARGE = "tests/bad_inputs/too_large_u55"  # Vela's SRAM figure exceeds a Corstone-300's 2 MiB
# KWS on an Ethos-U85 in Vela's Dedicated_Sram_384KB: it needs a 384 KiB fast scratch (region 2)
KWS_SRAM = "tests/firmware_model/kws_dscnn_u85_dedicated_sram"
HELLO_M55 = "examples/hello/firmware.elf"  # built for the Cortex-M55 (MVE)
TAMPERED = "sim/tests/firmware"  # KWS with a broken command stream: parse_error.pte, bus_error.pte

TOOLS = {
    "aot_compile": "python/ethosu_sdk/cli/aot_compile",
    "gen_memory": "python/ethosu_sdk/firmware/gen_memory",
    "gen_registration": "cc/kernels/codegen/gen_registration",
    "host_runner": "sim/host/host_runner",
    "pte_info": "python/ethosu_sdk/pte/pte_info",
    "run_firmware": "python/ethosu_sdk/runner/run_firmware",
    "run_model": "python/ethosu_sdk/cli/run_model",
}

# Lines that are not messages: progress, protocol framing, absl's flag hint.
NOISE = re.compile(r"^(\[aot\] |ESDK (BEGIN|RESULT ERROR|END|TIME)\b|Pass --helpshort or --helpfull)")


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    tool: str
    args: tuple[str, ...]  # {in}: the fixtures, {out}: where outputs would go
    status: int
    message: str  # regex the one line must match
    env: tuple[tuple[str, str], ...] = ()
    traceback: bool = False  # only the --verbose case shows one


AOT_OUT = "--output={out}/m.pte"
RUN_MODEL = (
    "--elf={in}/fake.elf",
    f"--summary={KWS}.summary.json",
    f"--expected={KWS}.expected.tensors",
    "--report_dir={out}/report",
)
HOST_KWS = (f"--pte={KWS}.pte", f"--input={KWS}.input.tensors")

CASES = [
    # aot_compile: flags
    Case(
        "aot_unknown_target",
        "aot_compile",
        ("--model=mlp_softmax", "--target=ethos-u99-1", AOT_OUT),
        2,
        r"^aot_compile: error: unknown target 'ethos-u99-1'; targets: ethos-u55-32, .*cpu",
    ),
    Case(
        "aot_unknown_model",
        "aot_compile",
        ("--model=no_such_model", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: unknown model 'no_such_model'; zoo models: .*mobilenet_v2.*"
        r"\(or give package\.module:function, or a model file: FILE\.py or FILE\.pt2\)$",
    ),
    Case(
        "aot_missing_output_flag",
        "aot_compile",
        ("--model=mlp_softmax", "--target=cpu"),
        1,
        r"^FATAL Flags parsing error: flag --output=None: Flag --output must have a value other than None",
    ),
    Case(
        "aot_output_not_pte",
        "aot_compile",
        ("--model=mlp_softmax", "--target=cpu", "--output={out}/m.onnx"),
        2,
        r"^aot_compile: error: --output must name a \.pte file, got '.*/m\.onnx'$",
    ),
    Case(
        "aot_output_dir_missing",
        "aot_compile",
        ("--model=mlp_softmax", "--target=cpu", "--output={out}/no/m.pte"),
        2,
        r"^aot_compile: error: output directory '.*/no' does not exist$",
    ),
    Case(
        "aot_output_dir_unwritable",
        "aot_compile",
        ("--model=mlp_softmax", "--target=cpu", "--output=/proc/m.pte"),
        2,
        r"^aot_compile: error: cannot write to output directory '/proc': \w",
    ),
    Case(
        "aot_nhwc_without_image_input",
        "aot_compile",
        ("--model=mlp_softmax", "--target=ethos-u85-256", "--input_layout=nhwc", AOT_OUT),
        2,
        r"^aot_compile: error: input layout nhwc needs a 4-D \(N, C, H, W\) input but the model takes \[1, \d+\]: "
        r"leave the input layout at nchw$",
    ),
    Case(
        "aot_unknown_board",
        "aot_compile",
        ("--model=mlp_softmax", "--target=ethos-u85-256", "--board=stm32", AOT_OUT),
        2,
        r"^aot_compile: error: unknown board 'stm32'; boards: corstone300, corstone320, qemu_an547$",
    ),
    Case(
        "aot_model_too_large_for_board",
        "aot_compile",
        ("--model=bad_models:too_large_for_sram", "--target=ethos-u55-128", "--board=corstone300", AOT_OUT),
        2,
        r"^aot_compile: error: model 'bad_models:too_large_for_sram' needs [\d,]+ KiB of SRAM \(Vela, memory mode "
        r"Shared_Sram\) but board corstone300 has 2,048 KiB: tune it for the board \(ethosu_model\(tune = True, "
        r"board = \"corstone300\"\)\): a smaller schedule may fit, or use a board with more SRAM$",
    ),
    Case(
        "aot_float_on_npu",
        "aot_compile",
        ("--model=mlp_softmax", "--target=ethos-u85-256", "--quantize=none", AOT_OUT),
        2,
        r"^aot_compile: error: ethos-u85-256 runs integer graphs only: use --quantize=int8 or a16w8$",
    ),
    # aot_compile: the user's model code
    Case(
        "model_raises_in_build",
        "aot_compile",
        ("--model=bad_models:raises_in_build", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: model 'bad_models:raises_in_build' failed while building: "
        r"RuntimeError: cannot open weights\.bin \(--verbose shows the traceback\)$",
    ),
    Case(
        "model_raises_in_build_quiet",
        "aot_compile",
        ("--model=bad_models:raises_in_build", "--target=cpu", "--quiet", AOT_OUT),
        2,
        r"^aot_compile: error: model 'bad_models:raises_in_build' failed while building: "
        r"RuntimeError: cannot open weights\.bin",
    ),
    Case(
        "model_raises_in_build_verbose",
        "aot_compile",
        ("--model=bad_models:raises_in_build", "--target=cpu", "--verbose", AOT_OUT),
        2,
        r"^aot_compile: error: model 'bad_models:raises_in_build' failed while building: "
        r"RuntimeError: cannot open weights\.bin$",
        traceback=True,
    ),
    Case(
        "model_raises_in_forward",
        "aot_compile",
        ("--model=bad_models:raises_in_forward", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: model 'bad_models:raises_in_forward' failed while exporting: "
        r"torch\.export failed \(ValueError\): shape mismatch in my layer",
    ),
    Case(
        "model_module_raises_on_import",
        "aot_compile",
        ("--model=raises_on_import:build", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: model 'raises_on_import:build' failed while building: "
        r"ZeroDivisionError: division by zero",
    ),
    Case(
        "model_module_missing",
        "aot_compile",
        ("--model=no_such_module:build", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: cannot import model module 'no_such_module': No module named 'no_such_module'$",
    ),
    Case(
        "model_function_missing",
        "aot_compile",
        ("--model=bad_models:no_such_function", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: 'bad_models' has no callable 'no_such_function'$",
    ),
    Case(
        "model_returns_not_a_module",
        "aot_compile",
        ("--model=bad_models:returns_not_a_module", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: bad_models:returns_not_a_module returned tuple of \(str, tuple\); "
        r"it must return \(nn\.Module, tuple of example input tensors\)$",
    ),
    Case(
        "model_inputs_not_tensors",
        "aot_compile",
        ("--model=bad_models:returns_inputs_not_tensors", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: bad_models:returns_inputs_not_tensors returned example inputs tuple of \(list\); "
        r"it must return",
    ),
    # aot_compile: model files (ExecuTorch's ModelUnderTest convention, torch.export programs)
    Case(
        "model_file_missing",
        "aot_compile",
        ("--model={in}/none.py", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: model file '.*/none\.py' does not exist$",
    ),
    Case(
        "model_file_without_convention",
        "aot_compile",
        ("--model=tests/bad_inputs/bad_models.py", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: tests/bad_inputs/bad_models\.py has no ModelUnderTest or ModelInputs: "
        r"a model file must define ModelUnderTest \(an nn\.Module instance\) and ModelInputs",
    ),
    Case(
        "model_file_class_not_instance",
        "aot_compile",
        ("--model={in}/class_model.py", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: .*/class_model\.py: ModelUnderTest is the class Net, not an instance; "
        r"write ModelUnderTest = Net\(\.\.\.\)$",
    ),
    Case(
        "model_file_not_a_program",
        "aot_compile",
        ("--model={in}/garbage.pt2", "--target=cpu", AOT_OUT),
        2,
        r"^aot_compile: error: .*/garbage\.pt2 is not a torch\.export program \(.*\): save one with "
        r"torch\.export\.save",
    ),
    # Selective kernel registration (the firmware's build)
    Case(
        "operator_without_kernel",
        "gen_registration",
        (f"--pte={CUMPROD}", "--out={out}/registration.cc"),
        1,
        r"^gen_registration: error: no CPU kernel for aten::cumprod\.out \(used by .*cumprod_cpu\.pte\): "
        r".*add a kernel to cc/kernels/",
    ),
    Case(
        "operator_refused",
        "gen_registration",
        (f"--pte={RAND_PTE}", "--out={out}/registration.cc"),
        1,
        r"^gen_registration: error: aten::rand\.out \(used by .*noise_cpu\.pte\) is not supported: random "
        r"numbers; a firmware's outputs must be reproducible$",
    ),
    Case(
        "registration_missing_pte",
        "gen_registration",
        ("--pte={in}/none.pte", "--out={out}/registration.cc"),
        1,
        r"^gen_registration: error: cannot read .*/none\.pte: No such file or directory$",
    ),
    Case(
        "registration_garbage_pte",
        "gen_registration",
        ("--pte={in}/garbage.pte", "--out={out}/registration.cc"),
        1,
        r"^gen_registration: error: .*/garbage\.pte: not an ExecuTorch program",
    ),
    # The firmware's build: a model larger than the board's memory
    Case(
        "model_too_large_for_board",
        "gen_memory",
        (
            f"--pte={TOO_LARGE}.pte",
            f"--summary={TOO_LARGE}.summary.json",
            "--board=corstone300",
            "--out={out}/memory.cc",
        ),
        1,
        r"^gen_memory: error: model 'bad_models:too_large_for_sram' needs [\d,]+ KiB of SRAM \(Vela, memory mode "
        r"Shared_Sram\) but board corstone300 has 2,048 KiB: tune it for the board",
    ),
    Case(
        "npu_model_for_board_without_npu",
        "gen_memory",
        (f"--pte={KWS}.pte", f"--summary={KWS}.summary.json", "--board=qemu_an505", "--out={out}/memory.cc"),
        1,
        r"^gen_memory: error: model 'kws_dscnn' is compiled for ethos-u85-256 but board qemu_an505 has no NPU: "
        r"compile it for a CPU target \(cortex-m33\) or use a board with an Ethos-U \(corstone320\)$",
    ),
    Case(
        "u85_model_for_defaulted_sse300_board",
        "gen_memory",
        (
            f"--pte={KWS}.pte",
            f"--summary={KWS}.summary.json",
            "--board=qemu_an547",
            "--noboard_given",
            "--out={out}/memory.cc",
        ),
        1,
        r"^gen_memory: error: the model is compiled for ethos-u85-256, which is built into corstone320 "
        r'\(SSE-320\), but the firmware defaulted to qemu_an547: pass board = "corstone320" to ethosu_firmware$',
    ),
    # host_runner: .pte and tensor files
    Case(
        "host_missing_pte",
        "host_runner",
        ("--pte={in}/none.pte", f"--input={KWS}.input.tensors"),
        2,
        r"^host_runner: error: cannot read --pte=.*/none\.pte: No such file or directory$",
    ),
    Case(
        "host_unknown_flag",
        "host_runner",
        (*HOST_KWS, "--iterationz=3"),
        2,
        r"^host_runner: error: unknown argument '--iterationz=3'; usage: host_runner --pte=FILE",
    ),
    Case(
        "host_empty_pte",
        "host_runner",
        ("--pte={in}/empty.pte", f"--input={KWS}.input.tensors"),
        2,
        r"^ESDK ERROR InvalidProgram .*file of 0 bytes is shorter than a flatbuffer header",
    ),
    Case(
        "host_truncated_pte",
        "host_runner",
        ("--pte={in}/truncated.pte", f"--input={KWS}.input.tensors"),
        2,
        r"^ESDK ERROR InvalidProgram .*program size \d+ outside the file of 1000 bytes",
    ),
    Case(
        "host_garbage_pte",
        "host_runner",
        ("--pte={in}/garbage.pte", f"--input={KWS}.input.tensors"),
        2,
        r"^ESDK ERROR InvalidProgram .*file identifier is not ET12",
    ),
    Case(
        "host_segments_past_end",
        "host_runner",
        ("--pte={in}/segments_past_end.pte", f"--input={KWS}.input.tensors"),
        2,
        r"^ESDK ERROR InvalidProgram .*segment base offset \d+ outside the file of \d+ bytes",
    ),
    Case(
        "host_input_not_tensors",
        "host_runner",
        (f"--pte={KWS}.pte", "--input={in}/not.tensors"),
        2,
        r"^ESDK ERROR InvalidArgument .*tensor file: bad magic",
    ),
    Case(
        "host_input_truncated",
        "host_runner",
        (f"--pte={KWS}.pte", "--input={in}/truncated.tensors"),
        2,
        r"^ESDK ERROR InvalidArgument .*tensor file: record header past the end",
    ),
    Case(
        "host_input_wrong_shape",
        "host_runner",
        (f"--pte={KWS}.pte", f"--input={RESNET_CPU}.input.tensors"),
        2,
        r"^ESDK ERROR InvalidArgument .*input 0 dtype or shape differs",
    ),
    Case(
        "host_unknown_method",
        "host_runner",
        (*HOST_KWS, "--method=train"),
        2,
        r"^ESDK ERROR NotFound .*no method: train$",
    ),
    # host_runner: the NPU model's own failure codes, and where in the stream
    Case(
        "host_npu_parse_error",
        "host_runner",
        (f"--pte={TAMPERED}/parse_error.pte", f"--input={KWS}.input.tensors"),
        2,
        r"^ESDK ERROR NpuCommandStream instruction=\d+ command=0 Ethos-U: unknown command 0x3ff",
    ),
    Case(
        "host_npu_bus_error",
        "host_runner",
        (f"--pte={TAMPERED}/bus_error.pte", f"--input={KWS}.input.tensors"),
        2,
        r"^ESDK ERROR NpuBusError instruction=\d+ command=\d+ Ethos-U: .*outside region 1",
    ),
    Case(
        "host_npu_bad_payload",
        "host_runner",
        ("--pte={in}/bad_payload.pte", f"--input={KWS}.input.tensors"),
        2,
        r"^ESDK ERROR InvalidProgram .*vela: cmd_data lacks COP1 header",
    ),
    Case(
        "host_fast_scratch_too_small",
        "host_runner",
        (f"--pte={KWS_SRAM}.pte", f"--input={KWS_SRAM}.input.tensors", "--fast_scratch_bytes=1024"),
        2,
        r"^ESDK ERROR OutOfMemory .*Ethos-U fast scratch \(region 2, the NPU's SRAM arena cache\) too small for "
        r"the model: 1024 bytes, the model needs 393216",
    ),
    # pte_info (the Python .pte reader)
    Case(
        "pte_info_missing",
        "pte_info",
        ("{in}/none.pte",),
        1,
        r"^pte_info: error: cannot read .*/none\.pte: No such file or directory$",
    ),
    Case(
        "pte_info_truncated",
        "pte_info",
        ("{in}/truncated.pte",),
        1,
        r"^pte_info: error: .*/truncated\.pte is not a valid ExecuTorch program \(.+\): give a \.pte that "
        r"aot_compile or ExecuTorch wrote$",
    ),
    # run_firmware
    Case(
        "firmware_bad_npu",
        "run_firmware",
        ("--elf={in}/fake.elf", "--npu=ethos-u99-7"),
        2,
        r"^error: --npu=ethos-u99-7 is not an Ethos-U configuration \(ethos-u55-128, ethos-u85-256, \.\.\.\)$",
    ),
    Case(
        "firmware_unknown_board",
        "run_firmware",
        ("--elf={in}/fake.elf", "--board=raspberry_pi"),
        1,
        r"^FATAL Flags parsing error: flag --board=raspberry_pi: value should be one of "
        r"<corstone300\|corstone320\|qemu_an386\|qemu_an500\|qemu_an505\|qemu_an547>$",
    ),
    Case(
        "firmware_wrong_cpu",
        "run_firmware",
        (f"--elf={HELLO_M55}", "--board=qemu_an505"),
        2,
        r"^error: --elf=.*/firmware\.elf was built for cortex-m55 with Helium \(MVE\), but board qemu_an505 "
        r"has a Cortex-M33 without MVE: rebuild it for this board \(firmware_image/ethosu_firmware "
        r'board = "qemu_an505", a cortex-m33 model\) or run it on a board with MVE \(qemu_an547\)$',
    ),
    Case(
        "firmware_missing_elf",
        "run_firmware",
        ("--elf={in}/none.elf",),
        2,
        r"^error: cannot read the firmware --elf=.*/none\.elf: No such file or directory$",
    ),
    Case(
        "firmware_not_an_elf",
        "run_firmware",
        (f"--elf={KWS}.pte",),
        2,
        r"^error: --elf=.*\.pte is not an ELF file: give the firmware image that firmware_image or "
        r"ethosu_firmware builds$",
    ),
    Case(
        "firmware_simulator_missing",
        "run_firmware",
        ("--elf={in}/fake.elf",),
        127,
        r"^error: ETHOSU_SDK_QEMU=/nowhere/qemu-system-arm is not an executable file: unset ETHOSU_SDK_QEMU "
        r"or point it at a qemu-system-arm$",
        env=(("ETHOSU_SDK_QEMU", "/nowhere/qemu-system-arm"),),
    ),
    Case(
        "firmware_simulator_crashes",
        "run_firmware",
        ("--elf={in}/fake.elf",),
        139,
        r"^error: the simulator crashing-qemu was killed by SIGSEGV; the console output above shows how far",
        env=(("ETHOSU_SDK_QEMU", "{in}/crashing-qemu"),),
    ),
    Case(
        "firmware_simulator_hangs",
        "run_firmware",
        ("--elf={in}/fake.elf", "--timeout=2"),
        124,
        r"^error: the board did not finish within 2 s: give it more time \(--timeout, or timeout_seconds",
        env=(("ETHOSU_SDK_QEMU", "{in}/hanging-qemu"),),
    ),
    # run_model (ethosu_run)
    Case(
        "run_model_missing_summary",
        "run_model",
        ("--elf={in}/fake.elf", "--summary={in}/none.json", f"--expected={KWS}.expected.tensors"),
        2,
        r"^run_model: error: cannot read --summary=.*/none\.json: No such file or directory$",
    ),
    Case(
        "run_model_malformed_summary",
        "run_model",
        ("--elf={in}/fake.elf", "--summary={in}/not.json", f"--expected={KWS}.expected.tensors"),
        2,
        r"^run_model: error: --summary=.*/not\.json is malformed \(Expecting property name.*\): "
        r"give the file aot_compile wrote$",
    ),
    Case(
        "run_model_malformed_expected",
        "run_model",
        ("--elf={in}/fake.elf", f"--summary={KWS}.summary.json", "--expected={in}/not.tensors"),
        2,
        r"^run_model: error: --expected=.*/not\.tensors is malformed \(.*\): give the file aot_compile wrote$",
    ),
    Case(
        "run_model_bad_npu",
        "run_model",
        (*RUN_MODEL, "--npu=ethos-u85"),
        2,
        r"^run_model: error: --npu=ethos-u85 is not an Ethos-U configuration",
    ),
    Case(
        "run_model_simulator_missing",
        "run_model",
        RUN_MODEL,
        127,
        r"^run_model: error: ETHOSU_SDK_QEMU=/nowhere/qemu-system-arm is not an executable file: unset",
        env=(("ETHOSU_SDK_QEMU", "/nowhere/qemu-system-arm"),),
    ),
    Case(
        "run_model_report_unwritable",
        "run_model",
        (*RUN_MODEL[:3], "--report_dir=/proc/report"),
        2,
        r"^run_model: error: cannot write the report to /proc/report: .*give --report_dir=DIR somewhere writable$",
    ),
]


# The everyday tier (BAD_INPUTS_PERIOD=N, tests/bad_inputs/BUILD.bazel)
# runs every N-th case of each tool, the first included: a stratified
# sample, every tool still fed bad input; the full tier runs every case.
PERIOD = int(os.environ.get("BAD_INPUTS_PERIOD", "1"))


def sampled(cases: list[Case], period: int) -> list[Case]:
    """Every `period`-th case of each tool, in the catalogue's order."""
    seen: dict[str, int] = {}
    kept = []
    for case in cases:
        position = seen.get(case.tool, 0)
        seen[case.tool] = position + 1
        if position % period == 0:
            kept.append(case)
    return kept


SAMPLE = sampled(CASES, PERIOD)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The damaged files the cases read."""
    directory = tmp_path_factory.mktemp("inputs")
    pte = pathlib.Path(f"{KWS}.pte").read_bytes()
    (directory / "empty.pte").write_bytes(b"")
    (directory / "truncated.pte").write_bytes(pte[:1000])
    (directory / "garbage.pte").write_bytes(bytes(range(256)) * 20)
    (directory / "garbage.pt2").write_bytes(bytes(range(256)) * 20)
    (directory / "class_model.py").write_text(
        "import torch\n\nclass Net(torch.nn.Module):\n    def forward(self, x):\n        return x\n\n"
        "ModelUnderTest = Net\nModelInputs = (torch.zeros(1, 4),)\n"
    )
    # The extended header (offset 8: magic, length, program size, segment base)
    # sends the segments far past the end of the file.
    magic, length, program_size, _ = struct.unpack_from("<4sIQQ", pte, 8)
    assert magic == b"eh00"
    patched = bytearray(pte)
    struct.pack_into("<4sIQQ", patched, 8, magic, length, program_size, 1 << 40)
    (directory / "segments_past_end.pte").write_bytes(bytes(patched))
    (directory / "not.tensors").write_text("not tensors\n")
    (directory / "truncated.tensors").write_bytes(pathlib.Path(f"{KWS}.input.tensors").read_bytes()[:20])
    (directory / "not.json").write_text("{ not json\n")
    (directory / "fake.elf").write_bytes(b"\x7fELF" + bytes(60))
    # The Ethos-U payload's driver header ("COP1") broken, the rest intact.
    (directory / "bad_payload.pte").write_bytes(pte.replace(b"COP1", b"XXXX", 1))
    # Simulators that crash, and that never finish.
    for name, body in (("crashing-qemu", "kill -SEGV $$"), ("hanging-qemu", "exec sleep 120")):
        (directory / name).write_text(f"#!/bin/sh\n{body}\n")
        (directory / name).chmod(0o755)
    return directory


def run_case(case: Case, inputs: pathlib.Path, out: pathlib.Path) -> subprocess.CompletedProcess[str]:
    args = [a.replace("{in}", str(inputs)).replace("{out}", str(out)) for a in case.args]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.resolve()), os.environ.get("PYTHONPATH", "")]))
    env.pop("ETHOSU_SDK_QEMU", None)
    env.update((key, value.replace("{in}", str(inputs))) for key, value in case.env)
    return subprocess.run([TOOLS[case.tool], *args], capture_output=True, text=True, env=env, timeout=240, check=False)


@pytest.mark.parametrize("case", SAMPLE, ids=[c.name for c in SAMPLE])
def test_case(case: Case, inputs: pathlib.Path, tmp_path: pathlib.Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    result = run_case(case, inputs, out)
    output = result.stdout + result.stderr
    assert result.returncode == case.status, output
    assert ("Traceback" in output) == case.traceback, output
    if case.traceback:  # the traceback, then the line
        lines = [result.stderr.strip().splitlines()[-1]]
    else:
        lines = [line for line in output.splitlines() if line.strip() and not NOISE.match(line)]
    assert len(lines) == 1, output
    assert re.search(case.message, lines[0]), lines[0]
    assert sorted(os.listdir(out)) == [], "partial outputs left behind"


def test_readme_lists_every_case() -> None:
    rows = re.findall(r"^\| `([a-z0-9_]+)` \|", (HERE / "README.md").read_text(), re.MULTILINE)
    assert rows == [c.name for c in CASES]
