"""Stage 5 of compile_model (--eval_data): top-1 of every stage on the
labelled samples (python/ethosu_sdk/evaluate), for the summary's `accuracy`."""

from __future__ import annotations

from typing import Callable

from ethosu_sdk.aot.errors import InvalidOptionError
from ethosu_sdk.aot.references import References
from ethosu_sdk.aot.stages.stage_lower import Lowered
from ethosu_sdk.aot.stages.stage_quantize import Prepared


def evaluate(
    eval_dir: str,
    host_runner: str | None,
    prepared: Prepared,
    lowered: Lowered,
    references: References,
    staging: str,
    progress: Callable[[str], None],
) -> dict:
    from ethosu_sdk.evaluate import dataset, stages

    try:
        return stages.evaluate(
            eval_dir,
            prepared.float_module,
            prepared.quantized,
            references.inputs,
            int(references.expected[0].numel()),
            lowered.pte,
            references.input_qparams,
            [i.dim_order for i in lowered.plan.inputs],
            host_runner,
            staging,
            progress,
        )
    except dataset.EvaluationError as e:
        raise InvalidOptionError(str(e)) from None
