"""torch's FX provenance, shared instead of deep-copied.

Each FX node carries `meta["from_node"]`: a list of
`torch.fx.traceback.NodeSource`, each holding the chain of the nodes it was
made from. torch 2.13 deep-copies a node's whole chain every time a pass
makes a node from it (`NodeSource.__init__`), so the chains grow with
every pass and so does each copy. Through ExecuTorch's ~150 passes a
MobileNetV2 lowering makes millions of such copies (bench/RESULTS.md, the
cold everyday tier at `cd6601a`: 22 of 130 profiled seconds).

A NodeSource is never changed once made: torch builds a new one for each
step and new lists around the old ones (`fx/traceback.py`,
`fx/passes/graph_transform_observer.py`), and ExecuTorch and torchao only
read the chains (debug handles, the numeric debugger). So a copy may share
it: `share_node_sources()` makes `copy.deepcopy` return the object itself.
The lists holding them are still copied, so appending to one node's
`from_node` never shows in another's. The programs are byte-identical
with and without: `//bench:aot_times -- --provenance=copied` measures
torch's own copies (ETHOSU_SDK_TORCH_PROVENANCE=copied) and prints each
`.pte`'s digest (bench/RESULTS.md records both).
"""

from __future__ import annotations

import os
from typing import Any

# Set to "copied" to keep torch's deep copies (to measure what sharing saves).
ENV = "ETHOSU_SDK_TORCH_PROVENANCE"


def _shared(self: Any, memo: dict[int, Any]) -> Any:
    del memo
    return self


def share_node_sources() -> bool:
    """Makes a deep copy of a NodeSource the object itself. Idempotent;
    False when this torch has no NodeSource (nothing to do) or ENV asks for
    torch's copies."""
    if os.environ.get(ENV) == "copied":
        return False
    try:
        from torch.fx.traceback import NodeSource
    except ImportError:
        return False
    if getattr(NodeSource, "__deepcopy__", None) is not _shared:
        NodeSource.__deepcopy__ = _shared
    return True
