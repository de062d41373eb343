"""Reader of ExecuTorch `.pte` programs (flatc code of executorch's own schema)."""

from ethosu_sdk.pte.ethosu_payload import vela_blocks
from ethosu_sdk.pte.reader import (
    Delegate,
    ExecutionPlan,
    PteError,
    PteProgram,
    TensorInfo,
    delegate_payload,
    parse_pte,
    read_pte,
)

__all__ = [
    "Delegate",
    "ExecutionPlan",
    "PteError",
    "PteProgram",
    "TensorInfo",
    "delegate_payload",
    "parse_pte",
    "read_pte",
    "vela_blocks",
]
