"""The compilation's summary (`NAME.summary.json`): one typed record, built
in one place (`build`) and serialised in one place (`Summary.to_json`).

Its readers take the JSON (report/, runner/, firmware/gen_memory.py, the
tests, bench/), so the keys and values are a contract: a field renamed here
renames a key every reader looks up.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from typing import Any, Optional

from ethosu_sdk.aot import fast_scratch, vela_capture, vela_workarounds
from ethosu_sdk.aot.references import References
from ethosu_sdk.aot.stage_lower import Lowered
from ethosu_sdk.aot.stage_options import Request
from ethosu_sdk.aot.stage_quantize import Prepared
from ethosu_sdk.aot.targets import TargetKind

FORMAT_VERSION = 1

# JSON values the summary carries as their producers wrote them (Vela's
# figures, the tuner's and the precision search's entries, the evaluation).
Json = Any


@dataclasses.dataclass(frozen=True)
class PteFile:
    file: str  # base name, beside the summary
    size_bytes: int
    sha256: str


@dataclasses.dataclass(frozen=True)
class Delegate:
    backend: str
    payload_bytes: int


@dataclasses.dataclass(frozen=True)
class Input:
    shape: list[int]  # PyTorch's sizes
    dim_order: list[int]  # how the program lays them out in memory
    scale: float
    zero_point: int


@dataclasses.dataclass(frozen=True)
class Output:
    name: str  # the dict keys (and indices) of a model returning a dict or nested tuples
    shape: list[int]
    dim_order: list[int]
    scale: float
    zero_point: int


@dataclasses.dataclass(frozen=True)
class Summary:
    model: str
    target: str
    quantize: str
    io: str
    seed: int
    calibration_samples: int
    calibration: Optional[Json]
    input_layout: str
    board: Optional[str]
    system_config: Optional[str]
    memory_mode: Optional[str]
    vela_flags: list[str]
    tuning: Optional[Json]
    a16w8_modules: list[str]
    precision_tuning: Optional[Json]
    vela_workarounds: list[Json]
    lowering_workarounds: list[Json]  # ExecuTorch lowering fixes applied (lowering_workarounds.py)
    fast_scratch_bytes: Optional[int]  # region 2 the firmware must provide (Vela's arena cache); None off Ethos-U
    tosa_spec: Optional[str]
    pte: PteFile
    delegates: list[Delegate]
    fully_delegated: bool
    delegated_operators: dict[str, int]
    cpu_operators: dict[str, int]
    pte_kernel_calls: dict[str, int]
    inputs: list[Input]
    outputs: list[Output]
    vela: list[Json]  # Vela's figures per partition
    vela_total: Json
    accuracy: Optional[Json] = None  # top-1 per stage with --eval_data; the key is absent without
    format_version: int = FORMAT_VERSION

    def to_dict(self) -> dict[str, Json]:
        summary = dataclasses.asdict(self)
        if self.accuracy is None:
            del summary["accuracy"]
        return summary

    def to_json(self) -> bytes:
        return (json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n").encode()


def build(
    request: Request,
    prepared: Prepared,
    lowered: Lowered,
    references: References,
    pte_path: str,
    accuracy: Optional[Json],
) -> Summary:
    """The summary of a compilation, from its stages' results."""
    options, target, mode = request.options, lowered.target, request.mode
    shipped = lowered.shipped
    pte = lowered.pte
    plan = lowered.plan
    compile_spec = lowered.compile_spec
    workarounds = [w.as_summary() for w in prepared.workarounds]
    if shipped.kept_outputs:
        workarounds.append(vela_workarounds.Workaround(vela_workarounds.LOST_OUTPUT, shipped.kept_outputs).as_summary())
    return Summary(
        model=options.model,
        target=target.name,
        quantize=mode.value,
        io=request.io_mode.value,
        seed=options.seed,
        calibration_samples=len(prepared.samples),
        calibration=prepared.calibrated.as_summary() if prepared.calibrated else None,
        input_layout=lowered.input_layout.value,
        board=request.board.name if request.board else None,
        system_config=target.system_config,
        memory_mode=target.memory_mode,
        vela_flags=list(target.vela_flags),
        tuning=lowered.tuning,
        a16w8_modules=list(options.a16w8_modules),
        precision_tuning=options.precision_tuning,
        vela_workarounds=workarounds,
        lowering_workarounds=([shipped.applied.as_summary()] if shipped.applied.changed else []),
        fast_scratch_bytes=(
            fast_scratch.fast_scratch_bytes(compile_spec.compiler_flags) if target.kind is TargetKind.ETHOS_U else None
        ),
        tosa_spec=str(compile_spec.tosa_spec) if target.kind not in (TargetKind.CPU, TargetKind.CORTEX_M) else None,
        pte=PteFile(os.path.basename(pte_path), len(pte), hashlib.sha256(pte).hexdigest()),
        delegates=[Delegate(d.id, d.payload_size) for d in plan.delegates],
        fully_delegated=bool(plan.delegates)
        and all(op.startswith("quantized_decomposed::") for op in plan.kernel_calls),
        delegated_operators=lowered.delegated_operators,
        cpu_operators=lowered.cpu_operators,
        pte_kernel_calls=plan.kernel_calls,
        inputs=[
            Input(list(x.shape), list(info.dim_order), s, z)
            for x, info, (s, z) in zip(references.inputs, plan.inputs, references.input_qparams)
        ],
        outputs=[
            Output(n, list(y.shape), list(info.dim_order), s, z)
            for y, n, info, (s, z) in zip(
                references.expected, prepared.output_names, plan.outputs, references.output_qparams
            )
        ],
        vela=[dict(p.figures) for p in shipped.partitions],
        vela_total=vela_capture.total_figures(shipped.partitions),
        accuracy=accuracy,
    )
