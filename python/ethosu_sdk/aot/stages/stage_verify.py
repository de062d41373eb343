"""Stage 6 of compile_model (Ethos-U, with verify_dir): the inputs of the
build's verification (verify_data.py: each delegate's input, the TOSA graph's
origins; lowering_reference.py: PyTorch's quantized values per delegate),
staged and then moved into verify_dir. verify/ judges them."""

from __future__ import annotations

import os
import time

from ethosu_sdk.aot import layout, lowering_reference, verify_data
from ethosu_sdk.aot.references import References
from ethosu_sdk.aot.stages.stage_lower import Lowered
from ethosu_sdk.aot.stages.stage_quantize import Prepared


def write(
    verify_dir: str, staging: str, prepared: Prepared, lowered: Lowered, references: References
) -> dict[str, float]:
    """Writes the verification inputs (from the program's reference input,
    in its layout); the seconds spent per writer."""
    seconds: dict[str, float] = {}
    shipped = lowered.shipped
    # The program's reference input (integer with --io=int8), laid out as it takes it.
    program_inputs = layout.apply(references.inputs, lowered.input_layout)
    t = time.monotonic()
    stage = os.path.join(staging, "verify")
    delegate_inputs = verify_data.delegate_inputs(shipped.edge, program_inputs)
    verify_data.write(stage, lowered.target.name, shipped.partitions, delegate_inputs, prepared.first_export)
    seconds["verify_data"] = time.monotonic() - t
    t = time.monotonic()
    lowering_reference.write(
        stage,
        shipped.partitions,
        lowering_reference.delegate_calls(shipped.edge, program_inputs),
        prepared.first_export,
    )
    seconds["lowering_reference"] = time.monotonic() - t
    t = time.monotonic()
    os.makedirs(verify_dir, exist_ok=True)
    for name in sorted(os.listdir(stage)):
        os.replace(os.path.join(stage, name), os.path.join(verify_dir, name))
    seconds["verify_data"] += time.monotonic() - t
    return seconds
