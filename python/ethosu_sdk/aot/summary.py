"""The compilation's summary (`NAME.summary.json`): one typed record
(options.Summary), built in one place (`build`), serialised in one place
(`Summary.to_json`) and read back in one place (`Summary.from_json`).

Its readers take the JSON (report/, runner/, firmware/gen_memory.py, the
tests, bench/), so the keys and values are a contract: a field renamed here
renames a key every reader looks up.
"""

from __future__ import annotations

import hashlib
import os
from typing import Optional

from ethosu_sdk.aot import fast_scratch, vela_capture
from ethosu_sdk.aot.options import Delegate, Input, Json, Output, PteFile, Summary
from ethosu_sdk.aot.references import References
from ethosu_sdk.aot.stages.stage_lower import Lowered
from ethosu_sdk.aot.stages.stage_options import Request
from ethosu_sdk.aot.stages.stage_quantize import Prepared
from ethosu_sdk.aot.targets import TargetKind
from ethosu_sdk.aot.workarounds import vela_workarounds


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
        weights=options.weights if options.weights != "int8" else None,
        per_channel=False if not options.per_channel else None,
        io_quantization=options.io_quantization if options.io_quantization != "operators" else None,
        quantizer_setup=options.quantizer_setup,
    )
