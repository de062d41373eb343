"""Reads a slice's test run: each case's outcome and the first line that
says why it failed, from Bazel's build events (`--build_event_json_file`)
and its console. Shared by the conformance benches (bench/conformance,
bench/conformance_cortex_m), whose slices are packages of generated targets.
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import unquote, urlparse

# The first line of a failing action's or test's output that says why.
REASON = re.compile(
    r"(error:|Error:|FAIL:|verification FAILED|NPU fault|ProtocolError|TIMEOUT|timed out|not supported|"
    r"Missing operator|missing operator|differ)"
)


def _path(uri: str) -> str:
    return unquote(urlparse(uri).path)


def _reason(path: str) -> str:
    try:
        with open(path, errors="replace") as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        return "(no output)"
    for line in lines:
        if REASON.search(line) and "PASS" not in line:
            return line[:300]
    return lines[-1][:300] if lines else "(no output)"


def console_reasons(path: str, package: str) -> dict[str, str]:
    """Target name -> the first line saying why, after each failed action's
    `ERROR: ... (//bench/conformance/slice:NAME) failed` in the console."""
    out: dict[str, str] = {}
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    head = re.compile(r"^ERROR: .*\(//" + re.escape(package) + r":([A-Za-z0-9_]+)\) failed")
    for i, line in enumerate(lines):
        match = head.match(line)
        if not match:
            continue
        for follow in lines[i + 1 : i + 40]:
            if follow.startswith(("ERROR:", "[", "INFO:")):
                break
            if not follow.startswith(" ") and REASON.search(follow):
                out.setdefault(match.group(1), follow.strip()[:300])
                break
    return out


def read_events(events: str, export_errors: dict[str, str | None], package: str) -> dict[str, tuple[str, str]]:
    """(outcome, reason) per case's target name (the keys of `export_errors`,
    a case's export error or None): PASS, EXPORT FAIL, BUILD FAIL or FAIL."""
    console = console_reasons(os.path.join(os.path.dirname(events), "console.log"), package)
    outcome: dict[str, tuple[str, str]] = {n: ("EXPORT FAIL", e) for n, e in export_errors.items() if e}
    build_errors: dict[str, str] = {}
    with open(events) if os.path.exists(events) else open(os.devnull) as f:
        for line in f:
            event = json.loads(line)
            ident = event.get("id", {})
            # Only failed actions are reported; protobuf's JSON leaves out
            # `success: false`, so a missing field is a failure.
            if "actionCompleted" in ident and not event.get("action", {}).get("success", False):
                label = ident["actionCompleted"].get("label", "")
                # The verification says why on stdout, other tools on stderr.
                logs = [event["action"][s]["uri"] for s in ("stderr", "stdout") if s in event["action"]]
                reasons = [r for r in (_reason(_path(u)) for u in logs) if r != "(no output)"]
                name = label.rsplit(":", 1)[-1]
                build_errors[name] = reasons[0] if reasons else console.get(name, "(no output)")
            elif "testResult" in ident:
                name = ident["testResult"]["label"].rsplit(":", 1)[-1].removesuffix("_test")
                result = event.get("testResult", {})
                log = next((o["uri"] for o in result.get("testActionOutput", []) if o.get("name") == "test.log"), None)
                if result.get("status") == "PASSED":
                    outcome[name] = ("PASS", "")
                else:
                    outcome[name] = ("FAIL", _reason(_path(log)) if log else result.get("status", "?"))
    for name in export_errors:
        if name not in outcome:
            reason = next((r for label, r in build_errors.items() if label.startswith(name)), "build failed")
            outcome[name] = ("BUILD FAIL", reason)
    return outcome
