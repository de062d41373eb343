"""tosa_tables on a graph built with the TOSA tools' own serializer
(tosa_table_graphs.py): a
16-bit output computed through an int16 TABLE is marked (and the TABLE's
32-bit result); a 16-bit output
beside it that does not depend on the table, and an int8 TABLE's output
(exact: one entry per input), are not."""

from ethosu_sdk import tosa_tables
from ethosu_sdk.tosa_table_graphs import graph_with_tables


def test_only_the_sixteen_bit_output_after_an_int16_table_is_marked() -> None:
    graph = graph_with_tables()
    tables = tosa_tables.wide_table_tensors(graph)
    # The TABLE's own int32 result (an intermediate here) and the 16-bit output after it.
    assert tables.pop("through_table") == 16
    assert list(tables.values()) == [32]
    assert tosa_tables.table_output_tolerances(graph) == [tosa_tables.TABLE_TOLERANCE_STEPS, 0, 0]


def test_a_32_bit_output_gets_the_same_share_of_its_finer_steps() -> None:
    assert tosa_tables.table_tolerance_steps(16) == tosa_tables.TABLE_TOLERANCE_STEPS
    assert tosa_tables.table_tolerance_steps(32) == tosa_tables.TABLE_TOLERANCE_STEPS << 16
