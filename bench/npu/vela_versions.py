"""Benchmark: two Vela versions side by side on the zoo (issue 33).

For every zoo model on each target (int8, the SDK's default memory
configuration per target) and for the tuned MobileNetV2, compiles with the
SDK's AOT flow once per Vela version and runs the build-time verification
(the NPU program on the functional NPU model against the TOSA reference
model, and the TOSA graph against PyTorch's quantized graph). Each version
is one `aot_compile` subprocess whose PYTHONPATH differs only in the
directory holding that Vela (`pip install --no-deps --target DIR
ethos-u-vela==X`); the version each child imports is checked before use.
Prints a Markdown table: Vela's own total_cycles estimate per version (as
the summary records it), the verification result per version, what failed.

  tools/bazel run //bench/npu:vela_versions -- \\
      --vela=5.1.0=$PWD/.x/vela51site --vela=5.2.0=$PWD/.x/vela52site

The site directories must be under the workspace: `tools/bazel run` runs in
the build root, where only the workspace, the venv and the cache are mounted.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import os
import subprocess
import sys
from typing import Optional

from absl import app, flags

from ethosu_sdk.models.registry import model_names
from ethosu_sdk.pte import delegate_payload, parse_pte
from ethosu_sdk.report import tuning as report_tuning

FLAGS = flags.FLAGS
flags.DEFINE_multi_string(
    "vela", [], "VERSION=DIR: a Vela installed with `pip install --no-deps --target DIR` (give two, baseline first)."
)
flags.DEFINE_list("models", model_names(), "Zoo models, or models of your own (package.module:function, FILE.py).")
flags.DEFINE_list("model_path", [], "Directories added to both versions' PYTHONPATH (where models of your own live).")
flags.DEFINE_enum("quantize", "int8", ["int8", "a16w8"], "Quantization of every model.")
flags.DEFINE_list("targets", ["ethos-u55-128", "ethos-u85-256"], "Ethos-U targets.")
flags.DEFINE_bool("tuned", True, "Also the tuned MobileNetV2 (aot_compile --tune) within each target's budget.")
flags.DEFINE_string("work_dir", None, "Outputs go here (default: .x/vela_versions in the workspace).")
flags.DEFINE_bool(
    "reuse", False, "Take a job's results from --work_dir when it has finished there (its log is written last)."
)
flags.DEFINE_integer("jobs", 2, "Compilations at once (each is one process).")
flags.DEFINE_integer("nice", 19, "Niceness of the child processes (the machine is shared).")

# SRAM budget of the tuned MobileNetV2 per target, as in bench/RESULTS.md's
# tuner section (issue 17): the U85 within 384 KiB, the U55 within the
# Corstone-300's 2 MiB of SRAM.
TUNE_BUDGET_KIB = {"ethos-u85-256": 384, "ethos-u55-128": 2048}


@dataclasses.dataclass(frozen=True)
class Job:
    model: str
    target: str
    tuned: bool
    version: str
    site: str

    @property
    def label(self) -> str:
        return f"{self.model}{' (tuned, %d KiB)' % TUNE_BUDGET_KIB[self.target] if self.tuned else ''}"

    @property
    def stem(self) -> str:
        name = self.model.replace(":", "_").replace("/", "_")
        quantize = "" if FLAGS.quantize == "int8" else f"_{FLAGS.quantize}"
        return f"{name}{'_tuned' if self.tuned else ''}{quantize}_{self.target}_vela{self.version}"


@dataclasses.dataclass
class Result:
    total_cycles: Optional[int] = None
    verification: str = "not run"
    failure: str = ""
    choice: str = ""  # the tuner's choice, tuned rows only
    payloads: tuple[bytes, ...] = ()  # the Ethos-U delegates' payloads, to tell whether the versions differ


def _npu_run() -> str:
    """//sim/host:npu_run in this binary's runfiles (the tree this file sits in)."""
    here = os.path.abspath(__file__)
    while os.path.dirname(here) != here and not here.endswith(".runfiles"):
        here = os.path.dirname(here)
    path = os.path.join(os.environ.get("RUNFILES_DIR") or here, "_main/sim/host/npu_run")
    if not os.path.exists(path):
        raise app.UsageError(f"cannot find the NPU model binary at {path}; run this with tools/bazel run")
    return path


def _env(site: str) -> dict[str, str]:
    """This process's environment with `site` first on PYTHONPATH: the
    children differ only in that directory."""
    env = dict(os.environ)
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY", ".")
    paths = [site, *(os.path.join(workspace, p) for p in FLAGS.model_path), os.environ.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return env


def _imported_version(site: str) -> str:
    """The Vela version a child with `site` first on PYTHONPATH imports, and from where."""
    probe = (
        "import importlib.metadata, os, ethosu.vela; "
        "print(importlib.metadata.version('ethos-u-vela'), os.path.dirname(ethosu.vela.__file__))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], env=_env(site), capture_output=True, text=True, check=True
    ).stdout.split()
    version, where = out[0], out[1]
    if not os.path.realpath(where).startswith(os.path.realpath(site)):
        raise app.UsageError(f"Vela from {site} is shadowed by {where}: install it with pip --target {site}")
    return version


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def _run(job: Job, work: str, npu_run: str) -> Result:
    out = os.path.join(work, job.stem + ".pte")
    args = [
        "nice",
        f"-n{FLAGS.nice}",
        sys.executable,
        "-m",
        "ethosu_sdk.cli.aot_compile",
        f"--model={job.model}",
        f"--target={job.target}",
        f"--quantize={FLAGS.quantize}",
        f"--output={out}",
        f"--npu_run={npu_run}",
        "--verify=warn",  # the report is written either way; the table says what failed
        "--quiet",
    ]
    if job.tuned:
        args += ["--tune", f"--sram_budget_kib={TUNE_BUDGET_KIB[job.target]}"]
    stem = out[: -len(".pte")]
    log = stem + ".log"
    if FLAGS.reuse and os.path.exists(log):
        with open(log) as f:
            output = f.read()
        compiled = os.path.exists(stem + ".summary.json")  # outputs are all or nothing
    else:
        proc = subprocess.run(args, env=_env(job.site), capture_output=True, text=True)
        output = proc.stdout + proc.stderr
        compiled = proc.returncode == 0
        with open(log, "w") as f:
            f.write(output)
    if not compiled:
        return Result(verification="compile failed", failure=_last_line(output))
    with open(stem + ".summary.json") as f:
        summary = json.load(f)
    result = Result(total_cycles=(summary.get("vela_total") or {}).get("total_cycles"), payloads=_payloads(out))
    if summary.get("tuning"):
        result.choice = report_tuning.choice_line(summary["tuning"])
    try:
        with open(stem + ".verification.json") as f:
            report = json.load(f)
    except FileNotFoundError:
        result.verification = "no report"
        result.failure = _last_line(output)
        return result
    result.verification = report["status"]
    if report["status"] != "pass":
        result.failure = report["summary"]
    return result


def _payloads(pte: str) -> tuple[bytes, ...]:
    with open(pte, "rb") as f:
        blob = f.read()
    program = parse_pte(blob)
    delegates = program.plan().delegates
    return tuple(delegate_payload(blob, program, index=i) for i, d in enumerate(delegates) if d.id == "EthosUBackend")


def _cycles(n: Optional[int]) -> str:
    return "-" if n is None else f"{n:,}"


def main(argv: list[str]) -> None:
    del argv
    if len(FLAGS.vela) != 2 or any("=" not in v for v in FLAGS.vela):
        raise app.UsageError("give --vela=VERSION=DIR twice (the baseline first), e.g. --vela=5.1.0=DIR51")
    sites = [tuple(v.split("=", 1)) for v in FLAGS.vela]
    for version, site in sites:
        if not os.path.isdir(site):
            raise app.UsageError(f"--vela={version}={site}: no such directory")
        imported = _imported_version(site)
        if imported != version:
            raise app.UsageError(f"--vela={version}={site}: that directory holds Vela {imported}")
    npu_run = _npu_run()
    work = FLAGS.work_dir or os.path.join(os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."), ".x/vela_versions")
    os.makedirs(work, exist_ok=True)
    rows = [(m, t, False) for m in FLAGS.models for t in FLAGS.targets]
    if FLAGS.tuned:
        rows += [("mobilenet_v2", t, True) for t in FLAGS.targets if t in TUNE_BUDGET_KIB]
    jobs = [Job(m, t, tuned, v, s) for m, t, tuned in rows for v, s in sites]
    # The longest first (the tuner, then MobileNetV2), so the pool does not end on one of them.
    jobs.sort(key=lambda j: (not j.tuned, j.model != "mobilenet_v2"))
    results: dict[Job, Result] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=FLAGS.jobs) as pool:
        futures = {pool.submit(_run, job, work, npu_run): job for job in jobs}
        for future in concurrent.futures.as_completed(futures):
            job = futures[future]
            results[job] = future.result()
            r = results[job]
            print(f"[vela_versions] {job.stem}: {_cycles(r.total_cycles)} cycles, {r.verification}", file=sys.stderr)
    (v0, _), (v1, _) = sites
    print(
        f"| model | target | total_cycles {v0} | total_cycles {v1} | {v1}/{v0} | verification {v0} | "
        f"verification {v1} | NPU program | what failed |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for m, t, tuned in rows:
        a, b = (results[Job(m, t, tuned, v, s)] for v, s in sites)
        ratio = f"{b.total_cycles / a.total_cycles:.3f}" if a.total_cycles and b.total_cycles else "-"
        failed = "; ".join(f"{v}: {r.failure}" for (v, _), r in zip(sites, (a, b)) if r.failure)
        label = Job(m, t, tuned, v0, "").label
        same = "-" if not (a.payloads and b.payloads) else "same" if a.payloads == b.payloads else "differs"
        print(
            f"| {label} | {t} | {_cycles(a.total_cycles)} | {_cycles(b.total_cycles)} | {ratio} | "
            f"{a.verification} | {b.verification} | {same} | {failed} |"
        )
    for m, t, tuned in rows:
        if tuned:
            for v, s in sites:
                print(f"\ntuned {m} on {t}, Vela {v}: {results[Job(m, t, tuned, v, s)].choice}")


if __name__ == "__main__":
    app.run(main)
