"""Which Vela versions each known fault's workaround runs for."""

from __future__ import annotations

import pytest

from ethosu_sdk.aot.workarounds import vela_faults


def test_parse_orders_versions_numerically():
    assert vela_faults.parse("5.2.0") == (5, 2, 0)
    assert vela_faults.parse("5.10.0") > vela_faults.parse("5.9.1")
    assert vela_faults.parse("5.2.0rc1") == (5, 2, 0)
    assert vela_faults.parse("5.2.0+local.3") == (5, 2, 0)


@pytest.mark.parametrize(
    ("fixed_in", "version", "expected"),
    [
        (None, "5.0.0", False),  # before it was found
        (None, "5.1.0", True),
        (None, "6.0.0", True),  # no fixed version known: kept
        ("5.2.0", "5.1.0", True),
        ("5.2.0", "5.2.0", False),
        ("5.2.0", "5.3.1", False),
    ],
)
def test_a_fault_applies_from_found_in_up_to_fixed_in(fixed_in, version, expected):
    fault = vela_faults.VelaFault("f", found_in="5.1.0", fixed_in=fixed_in, evidence="-")
    assert fault.applies_to(version) is expected
