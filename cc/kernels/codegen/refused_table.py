"""refused.yaml: the portable library's operators not implemented here,
each with its status (refused / pending) and the reason."""

from __future__ import annotations

import os
from typing import Dict

import operator_table
import yaml

REFUSED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "refused.yaml")
STATUSES = ("refused", "pending")


def load(path: str = REFUSED) -> Dict[str, Dict[str, str]]:
    """operator name -> {status, reason}; raises TableError on a bad entry."""
    with open(path) as f:
        entries = yaml.safe_load(f)
    table: Dict[str, Dict[str, str]] = {}
    for e in entries:
        if e.get("status") not in STATUSES or not e.get("reason") or not e.get("op"):
            raise operator_table.TableError(f"{path}: entry {e} needs op, status ({'/'.join(STATUSES)}) and reason")
        if e["op"] in table:
            raise operator_table.TableError(f"{path}: {e['op']} is listed twice")
        table[e["op"]] = {"status": e["status"], "reason": e["reason"]}
    return table
