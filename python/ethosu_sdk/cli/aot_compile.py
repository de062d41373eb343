"""aot_compile: PyTorch model -> ExecuTorch .pte for an Ethos-U / TOSA / CPU target.

Writes NAME.pte, NAME.input.tensors, NAME.expected.tensors and
NAME.summary.json for --output=DIR/NAME.pte (all or nothing).

Example:
  aot_compile --model=mobilenet_v2 --target=ethos-u85-256 --output=/tmp/mv2.pte
"""

from __future__ import annotations

import dataclasses
import json
import logging as std_logging
import os
import sys
import traceback
import warnings
from typing import Any

from absl import app, flags, logging

from ethosu_sdk.aot import ALL_TARGETS, AotError, CompileOptions, CompileResult, HostTools, compile_model
from ethosu_sdk.aot import options as options_schema
from ethosu_sdk.aot.errors import first_line
from ethosu_sdk.cli.held_back import held_back_output
from ethosu_sdk.errors import SdkError
from ethosu_sdk.models import UnknownModelError, model_names
from ethosu_sdk.report import tuning as report_tuning
from ethosu_sdk.worker import server

FLAGS = flags.FLAGS

# What a flag's help adds to its option's (options.py) on the command line.
_HELP_EXTRA = {
    "model": lambda: f" Zoo models: {', '.join(model_names())}.",
    "target": lambda: f" One of: {', '.join(ALL_TARGETS)}.",
}


def _define_option_flags() -> None:
    """One absl flag per compile option, from its field metadata (options.py)."""
    for field, spec in options_schema.option_fields():
        name = spec.flag or field.name
        default = None if field.default is dataclasses.MISSING else field.default
        helptext = spec.help + _HELP_EXTRA.get(field.name, lambda: "")()
        kind = str(field.type)
        if spec.values:
            flags.DEFINE_enum(name, default, list(spec.values), helptext)
        elif spec.multi:
            flags.DEFINE_multi_string(name, list(default or ()), helptext)
        elif kind == "bool":
            flags.DEFINE_bool(name, default, helptext)
        elif "int" in kind:
            flags.DEFINE_integer(name, default, helptext)
        elif "float" in kind:
            flags.DEFINE_float(name, default, helptext)
        else:
            flags.DEFINE_string(name, default, helptext)


_define_option_flags()
flags.DEFINE_string(
    "options",
    None,
    "A JSON object of compile options by name (as ethosu_model writes them); a flag given as well wins.",
)
flags.DEFINE_enum(
    "verify",
    "fail",
    ["fail", "warn", "off"],
    "Ethos-U: run each delegate on the functional NPU model and compare it bit for bit, layer by "
    "layer, with the TOSA reference model (python/ethosu_sdk/verify); fail: a difference is an "
    "error, warn: it is reported. Needs --npu_run (found in the runfiles under bazel run).",
)
flags.DEFINE_string("host_runner", None, "The host runner for --eval_data (//sim/host:host_runner).")
flags.DEFINE_string("npu_run", None, "The NPU model binary for --verify (//sim/host:npu_run).")
flags.DEFINE_string("output", None, "Path of the .pte to write; references are written next to it.")
flags.DEFINE_multi_string(
    "import_path",
    [],
    "A directory to import the model's module from, before the installed ones (repeatable). "
    "ethosu_model passes its model_deps' roots, so one compiler (and one persistent worker) "
    "serves every model.",
)
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
flags.mark_flags_as_required(["output"])


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
        _quiet_libraries()
    # The model's own code first; a persistent worker restores sys.path and
    # forgets these modules after the request (worker/isolation.py).
    sys.path[:0] = [os.path.abspath(p) for p in FLAGS.import_path]
    values = _option_values()
    npu_run = _npu_run_or_none()
    _check_npu_run(npu_run, values["target"])
    values["verify_dir"] = _verify_dir(npu_run, values)
    options = CompileOptions(**values)
    tools = HostTools(
        host_runner=FLAGS.host_runner or (_runfile("sim/host/host_runner") if options.eval_dir else None),
        verify_trial=_trial_verifier(npu_run, options.target) if options.accuracy_tolerance is not None else None,
    )
    result = compile_model(options, FLAGS.output, tools=tools)
    _print_result(result)
    if FLAGS.timings_json:
        with open(FLAGS.timings_json, "w") as f:
            json.dump(result.timings, f, indent=2, sort_keys=True)
    for path in result.paths.values():
        print(path)
    if FLAGS.verify != "off" and options.verify_dir and os.path.exists(options.verify_dir):
        assert npu_run is not None  # _verify_dir gives a directory only with the binary
        _verify(options.verify_dir, npu_run)
    return 0


def _quiet_libraries() -> None:
    logging.set_verbosity(logging.ERROR)
    # torch's loggers have handlers of their own (import-time deprecation notices).
    std_logging.getLogger("torch").setLevel(std_logging.ERROR)
    # Libraries' deprecation notices (torch's pytree, ExecuTorch) are not
    # the user's to act on; --verbose shows them.
    warnings.simplefilter("ignore")


def _option_values() -> dict[str, Any]:
    """The compile options by field name: --options' file, then each flag
    given on the command line over it, then the flags' defaults."""
    values: dict[str, Any] = {}
    if FLAGS.options:
        try:
            with open(FLAGS.options) as f:
                values = options_schema.from_json_options(f.read())
        except (OSError, ValueError) as e:
            raise AotError(f"--options={FLAGS.options}: {e}") from None
    for field, spec in options_schema.option_fields():
        flag = FLAGS[spec.flag or field.name]
        if flag.present or field.name not in values:
            values[field.name] = tuple(flag.value) if spec.multi else flag.value
    for required in ("model", "target"):
        if not values[required]:
            raise app.UsageError(f"--{required} is required (as a flag or in --options)")
    return values


def _check_npu_run(npu_run: str | None, target: str) -> None:
    """--verify without the NPU model binary: an error when asked for, said otherwise."""
    if npu_run is not None or FLAGS.verify == "off" or not target.startswith("ethos-u"):
        return
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


def _print_result(result: CompileResult) -> None:
    """The compilation's lines on stderr: delegation, Vela's figures, the searches, timings, accuracy."""
    summary, t = result.summary, result.timings
    cpu = ", ".join(f"{op} x{n}" for op, n in summary.pte_kernel_calls.items()) or "none"
    _say(f"{summary.model} -> {summary.target}: {len(summary.delegates)} delegate(s), CPU operators: {cpu}")
    figures = summary.vela_total
    if figures:
        _say(
            f"Vela: inference {figures.get('total_cycles')} cycles (compute {figures.get('npu_cycles')}, "
            f"the rest memory stalls), {figures.get('macs')} MACs, "
            f"SRAM {figures.get('sram_used_kib')} KiB, DRAM {figures.get('dram_used_kib')} KiB"
        )
    tuning = summary.tuning
    if tuning:
        chosen = tuning["trials"][tuning["chosen"]]
        fit = sum(1 for r in tuning["trials"] if r["fits"])
        _say(f"tuned: {chosen.get('total_cycles')} cycles, {report_tuning.choice_line(tuning)} ({fit} of them fit)")
    if summary.precision_tuning:
        _say(f"precision: {report_tuning.precision_line(summary.precision_tuning)}")
    tune = f", tune {t['tune']:.2f} s" if "tune" in t else ""
    _say(
        f"timing: export {t['export']:.2f} s, quantize {t['quantize']:.2f} s, "
        f"lower {t['lower']:.2f} s{tune}, total {t['total']:.2f} s"
    )
    if summary.accuracy:
        from ethosu_sdk.evaluate import summary_text

        for line in summary_text.summary_lines(summary.accuracy):
            _say(line)


def _say(line: str) -> None:
    print(f"[aot] {line}", file=sys.stderr)


def _verify(verify_dir: str, npu_run: str) -> None:
    from ethosu_sdk.verify import verify

    stem = FLAGS.output[: -len(".pte")]
    code, text, _ = verify.run(FLAGS.output, verify_dir, npu_run, FLAGS.verify, stem + ".verification.json")
    if code != 0:
        raise VerificationFailed(text)  # printed whole, even with --quiet
    print(text, file=sys.stderr)


def _trial_verifier(npu_run: str | None, target: str):
    """Verifies each precision trial's program (--accuracy_tolerance) when the
    NPU model binary is here: its status and summary line for the summary."""
    if npu_run is None or not target.startswith("ethos-u"):
        return None

    def verify_trial(pte_path: str, directory: str) -> dict:
        from ethosu_sdk.verify import verify

        report = pte_path[: -len(".pte")] + ".verification.json"
        _, text, _ = verify.run(pte_path, directory, npu_run, "warn", report)
        with open(report) as f:
            status = json.load(f)["status"]
        return {"status": status, "summary": text.splitlines()[0] if text else ""}

    return verify_trial


def _verify_dir(npu_run: str | None, values: dict[str, Any]) -> str | None:
    """--verify_dir, or next to the outputs when verifying here."""
    given = values["verify_dir"]
    if given or FLAGS.verify == "off" or not values["target"].startswith("ethos-u") or npu_run is None:
        return given
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
