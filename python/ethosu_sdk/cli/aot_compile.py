"""aot_compile: PyTorch model -> ExecuTorch .pte for an Ethos-U / TOSA / CPU target.

Writes NAME.pte, NAME.input.tensors, NAME.expected.tensors and
NAME.summary.json for --output=DIR/NAME.pte (all or nothing).

Example:
  aot_compile --model=mobilenet_v2 --target=ethos-u85-256 --output=/tmp/mv2.pte
"""

from __future__ import annotations

import json
import logging as std_logging
import os
import sys
import traceback
import warnings

from absl import app, flags, logging

from ethosu_sdk.aot import ALL_TARGETS, AotError, CompileOptions, HostTools, QuantMode, compile_model
from ethosu_sdk.aot.errors import first_line
from ethosu_sdk.cli.held_back import held_back_output
from ethosu_sdk.errors import SdkError
from ethosu_sdk.models import UnknownModelError, model_names
from ethosu_sdk.report import tuning as report_tuning
from ethosu_sdk.worker import server

FLAGS = flags.FLAGS
flags.DEFINE_string(
    "model",
    None,
    f"Zoo model ({', '.join(model_names())}), package.module:function "
    "returning (nn.Module, example input tuple), a Python file defining ModelUnderTest and "
    "ModelInputs (ExecuTorch's convention), or a torch.export.save'd FILE.pt2 (float).",
)
flags.DEFINE_string("target", None, f"One of: {', '.join(ALL_TARGETS)}.")
flags.DEFINE_enum(
    "quantize",
    "int8",
    [m.value for m in QuantMode],
    "int8: int8 activations, symmetric per-channel int8 weights; a16w8: int16 activations; "
    "none: float (TOSA-1.0+FP and cpu only).",
)
flags.DEFINE_string(
    "calibration_dir",
    None,
    "Directory of calibration samples, one file each: .tensors, .npy "
    "(one input) or .npz (one array per input), or any files with --calibration_preprocess "
    "(default: the example input).",
)
flags.DEFINE_multi_string("calibration_file", [], "A calibration sample file (repeatable; adds to --calibration_dir).")
flags.DEFINE_string(
    "calibration_preprocess",
    None,
    "module:function or FILE.py:function called with each "
    "calibration file's path, returning the model's inputs (e.g. decode and normalise an image).",
)
flags.DEFINE_string("system_config", None, "Vela system config (Ethos-U; default per family, as ExecuTorch).")
flags.DEFINE_string("memory_mode", None, "Vela memory mode (Ethos-U; default per family, as ExecuTorch).")
flags.DEFINE_string("state_dict", None, "Optional torch.save'd state dict to load into the model.")
flags.DEFINE_string("intermediates_dir", None, "Write TOSA flatbuffers, Vela reports and the delegation table here.")
flags.DEFINE_enum(
    "verify",
    "fail",
    ["fail", "warn", "off"],
    "Ethos-U: run each delegate on the functional NPU model and compare it bit for bit, layer by "
    "layer, with the TOSA reference model (python/ethosu_sdk/verify); fail: a difference is an "
    "error, warn: it is reported. Needs --npu_run (found in the runfiles under bazel run).",
)
flags.DEFINE_string(
    "verify_dir",
    None,
    "Write the verification's inputs here (ethosu_model runs it as an action of its own: with --verify=off).",
)
flags.DEFINE_string(
    "eval_data",
    None,
    "Directory of labelled samples, one .npz each (an array 'label', the "
    "class index, and one array per input; python/ethosu_sdk/evaluate/dataset.py): top-1 of the "
    "float model, the quantized graph and the compiled program (needs --host_runner, found in "
    "the runfiles under bazel run).",
)
flags.DEFINE_string("host_runner", None, "The host runner for --eval_data (//cc/runner:host_runner).")
flags.DEFINE_float(
    "accuracy_tolerance",
    None,
    "With --eval_data: points of top-1 against the float model the program may lose. Tunes the "
    "precision: int8, 16-bit activations on the layers of worst quantization error, A16W8; keeps "
    "the lowest total_cycles within the tolerance (python/ethosu_sdk/aot/search/precision.py).",
)
flags.DEFINE_string("npu_run", None, "The NPU model binary for --verify (//sim/host:npu_run).")
flags.DEFINE_bool(
    "lowering_workarounds",
    True,
    "Apply the SDK's fixes of ExecuTorch lowering bugs "
    "(python/ethosu_sdk/aot/workarounds/lowering_workarounds.py); --nolowering_workarounds shows what they fix.",
)
flags.DEFINE_string("output", None, "Path of the .pte to write; references are written next to it.")
flags.DEFINE_integer("seed", 0, "Seed of the model weights and the example input.")
flags.DEFINE_bool("strict_export", False, "Use torch.export's strict mode (TorchDynamo tracing).")
flags.DEFINE_enum(
    "input_layout",
    "nchw",
    ["nchw", "nhwc"],
    "Memory layout of 4-D (image) inputs: nchw (PyTorch's) or nhwc (channels-last: the program "
    "takes pixels with their channels innermost, and the NPU skips its input transpose).",
)
flags.DEFINE_enum(
    "io",
    "float",
    ["float", "int8"],
    "float: the program quantizes its inputs and dequantizes its outputs; int8 (with "
    "--quantize=int8): it takes and returns the quantized tensors, the input quantize and output "
    "dequantize folded out (the scales and zero points are in the summary).",
)
flags.DEFINE_bool(
    "tune",
    False,
    "Search the input layout and Vela's options (memory mode, optimisation strategy, "
    "arena cache size) for the lowest total_cycles within --sram_budget_kib; the search goes "
    "into the summary.",
)
flags.DEFINE_integer(
    "sram_budget_kib",
    None,
    "With --tune: the SRAM (KiB) the NPU may use on the board (default with --board: the board's SRAM).",
)
flags.DEFINE_string(
    "board",
    None,
    "The board the model will run on (qemu_an547, corstone300, corstone320): "
    "compiling fails, naming the sizes, when Vela's schedule does not fit its memories.",
)
flags.DEFINE_float("tune_time_budget_s", 600.0, "With --tune: stop trying configurations after this many seconds.")
flags.DEFINE_string("timings_json", None, "Also write the step timings (seconds) to this JSON file.")
flags.DEFINE_bool(
    "quiet",
    False,
    "Print nothing on success; on failure, print only the error line "
    "(for build actions; with --verbose, everything that was held back).",
)
flags.DEFINE_bool(
    "verbose",
    False,
    "Show the INFO and WARNING logs of ExecuTorch's Arm backend, the quantizer "
    "and torch, and on failure the traceback.",
)
flags.mark_flags_as_required(["model", "target", "output"])


def main(argv: list[str]) -> int:
    """Every failure ends in one line on stderr and a non-zero status; the
    traceback (and, with --quiet, the held-back log) only with --verbose."""
    if FLAGS.quiet:
        with held_back_output() as replay:
            code, error = _guarded_main(argv)
            if code != 0 and FLAGS.verbose:
                replay()
    else:
        code, error = _guarded_main(argv)
    if error:
        print(error if isinstance(error, VerificationFailed) else f"aot_compile: error: {error}", file=sys.stderr)
    return code


class VerificationFailed(SdkError):
    """The verification found a difference (its report is the message)."""


def _guarded_main(argv: list[str]) -> tuple[int, str | VerificationFailed | None]:
    """(exit status, the error line or the verification's report, or None)."""
    hint = "" if FLAGS.verbose else " (--verbose shows the traceback)"
    try:
        return _main(argv), None
    except VerificationFailed as e:
        return 1, e
    except (AotError, UnknownModelError) as e:
        if FLAGS.verbose:
            traceback.print_exc()
        # The traceback helps where other code raised (the model's, torch's).
        helps = e.__cause__ is not None and not isinstance(e, UnknownModelError)
        return 2, f"{e}{hint if helps else ''}"
    except app.UsageError:
        raise
    except Exception as e:  # a bug of the SDK or of a library: still one line
        if FLAGS.verbose:
            traceback.print_exc()
        return 1, f"internal error: {first_line(e)}{hint}"


def _main(argv: list[str]) -> int:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    # Under `bazel run`, relative paths are the caller's, not the runfiles'.
    if os.environ.get("BUILD_WORKING_DIRECTORY"):
        os.chdir(os.environ["BUILD_WORKING_DIRECTORY"])
    if not FLAGS.verbose:
        logging.set_verbosity(logging.ERROR)
        # torch's loggers have handlers of their own (import-time deprecation notices).
        std_logging.getLogger("torch").setLevel(std_logging.ERROR)
        # Libraries' deprecation notices (torch's pytree, ExecuTorch) are not
        # the user's to act on; --verbose shows them.
        warnings.simplefilter("ignore")
    npu_run = _npu_run_or_none()
    if npu_run is None and FLAGS.verify != "off" and FLAGS.target.startswith("ethos-u"):
        if FLAGS["verify"].present:  # asked for: an error
            raise AotError(
                "--verify needs the NPU model binary: pass --npu_run=PATH (tools/bazel build "
                "//sim/host:npu_run), or --verify=off"
            )
        # The default, where the binary is not installed (e.g. the wheel alone): said, not an error.
        print(
            "[aot] verification skipped: the NPU model binary is not here (--npu_run=PATH, from "
            "//sim/host:npu_run, turns it on)",
            file=sys.stderr,
        )
    options = CompileOptions(
        model=FLAGS.model,
        target=FLAGS.target,
        quantize=FLAGS.quantize,
        seed=FLAGS.seed,
        calibration_dir=FLAGS.calibration_dir,
        calibration_files=tuple(FLAGS.calibration_file),
        calibration_preprocess=FLAGS.calibration_preprocess,
        system_config=FLAGS.system_config,
        memory_mode=FLAGS.memory_mode,
        state_dict=FLAGS.state_dict,
        intermediates_dir=FLAGS.intermediates_dir,
        strict_export=FLAGS.strict_export,
        tune=FLAGS.tune,
        sram_budget_kib=FLAGS.sram_budget_kib,
        tune_time_budget_s=FLAGS.tune_time_budget_s,
        input_layout=FLAGS.input_layout,
        io=FLAGS.io,
        board=FLAGS.board,
        verify_dir=_verify_dir(npu_run),
        lowering_workarounds=FLAGS.lowering_workarounds,
        eval_dir=FLAGS.eval_data,
        accuracy_tolerance=FLAGS.accuracy_tolerance,
    )
    tools = HostTools(
        host_runner=FLAGS.host_runner or (_runfile("cc/runner/host_runner") if FLAGS.eval_data else None),
        verify_trial=_trial_verifier(npu_run) if FLAGS.accuracy_tolerance is not None else None,
    )
    result = compile_model(options, FLAGS.output, tools=tools)
    summary = result.summary.to_dict()
    t = result.timings
    cpu = ", ".join(f"{op} x{n}" for op, n in summary["pte_kernel_calls"].items()) or "none"
    print(
        f"[aot] {summary['model']} -> {summary['target']}: {len(summary['delegates'])} delegate(s), "
        f"CPU operators: {cpu}",
        file=sys.stderr,
    )
    figures = summary["vela_total"]
    if figures:
        print(
            f"[aot] Vela: inference {figures.get('total_cycles')} cycles (compute {figures.get('npu_cycles')}, "
            f"the rest memory stalls), {figures.get('macs')} MACs, "
            f"SRAM {figures.get('sram_used_kib')} KiB, DRAM {figures.get('dram_used_kib')} KiB",
            file=sys.stderr,
        )
    tuning = summary.get("tuning")
    if tuning:
        chosen = tuning["trials"][tuning["chosen"]]
        print(
            f"[aot] tuned: {chosen.get('total_cycles')} cycles, {report_tuning.choice_line(tuning)} "
            f"({sum(1 for r in tuning['trials'] if r['fits'])} of them fit)",
            file=sys.stderr,
        )
    if summary.get("precision_tuning"):
        print(f"[aot] precision: {report_tuning.precision_line(summary['precision_tuning'])}", file=sys.stderr)
    print(
        f"[aot] timing: export {t['export']:.2f} s, quantize {t['quantize']:.2f} s, "
        f"lower {t['lower']:.2f} s"
        + (f", tune {t['tune']:.2f} s" if "tune" in t else "")
        + f", total {t['total']:.2f} s",
        file=sys.stderr,
    )
    if summary.get("accuracy"):
        from ethosu_sdk.evaluate import summary_text

        for line in summary_text.summary_lines(summary["accuracy"]):
            print(f"[aot] {line}", file=sys.stderr)
    if FLAGS.timings_json:
        with open(FLAGS.timings_json, "w") as f:
            json.dump(t, f, indent=2, sort_keys=True)
    for path in result.paths.values():
        print(path)
    if FLAGS.verify != "off" and options.verify_dir and os.path.exists(options.verify_dir):
        from ethosu_sdk.verify import verify

        stem = FLAGS.output[: -len(".pte")]
        assert npu_run is not None  # _verify_dir gives a directory only with the binary
        code, text, _ = verify.run(FLAGS.output, options.verify_dir, npu_run, FLAGS.verify, stem + ".verification.json")
        if code != 0:
            raise VerificationFailed(text)  # printed whole, even with --quiet
        print(text, file=sys.stderr)
    return 0


def _trial_verifier(npu_run: str | None):
    """Verifies each precision trial's program (--accuracy_tolerance) when the
    NPU model binary is here: its status and summary line for the summary."""
    if npu_run is None or not FLAGS.target.startswith("ethos-u"):
        return None

    def verify_trial(pte_path: str, directory: str) -> dict:
        from ethosu_sdk.verify import verify

        report = pte_path[: -len(".pte")] + ".verification.json"
        _, text, _ = verify.run(pte_path, directory, npu_run, "warn", report)
        with open(report) as f:
            status = json.load(f)["status"]
        return {"status": status, "summary": text.splitlines()[0] if text else ""}

    return verify_trial


def _verify_dir(npu_run: str | None) -> str | None:
    """--verify_dir, or next to the outputs when verifying here."""
    if FLAGS.verify_dir or FLAGS.verify == "off" or not FLAGS.target.startswith("ethos-u") or npu_run is None:
        return FLAGS.verify_dir
    return FLAGS.output[: -len(".pte")] + ".verify"


def _npu_run_or_none() -> str | None:
    """--npu_run, or the binary in this program's runfiles (bazel run), or None."""
    if FLAGS.npu_run:
        return FLAGS.npu_run
    return _runfile("sim/host/npu_run")


def _runfile(path: str) -> str | None:
    """The executable `path` (of this repository) in this program's runfiles, or None."""
    # The runfiles tree of this binary: named by the environment, or the one
    # this file sits in (py_binary runs its main from there).
    roots = [os.environ.get("RUNFILES_DIR", ""), os.path.abspath(sys.argv[0]) + ".runfiles"]
    here = os.path.abspath(__file__)
    while os.path.dirname(here) != here:
        here = os.path.dirname(here)
        if here.endswith(".runfiles"):
            roots.append(here)
    for root in roots:
        candidate = os.path.join(root, "_main", path)
        if root and os.access(candidate, os.X_OK):
            return candidate
    return None


def run() -> None:
    """The CLI; with --persistent_worker, a Bazel worker running it per request."""
    server.run(main)


if __name__ == "__main__":
    run()
