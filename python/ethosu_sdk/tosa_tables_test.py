"""tosa_tables on a graph built with the TOSA tools' own serializer
(tosa_table_graphs.py): a
16-bit output computed through an int16 TABLE is marked; a 16-bit output
beside it that does not depend on the table, and an int8 TABLE's output
(exact: one entry per input), are not."""

from ethosu_sdk import tosa_tables
from ethosu_sdk.tosa_table_graphs import graph_with_tables


def test_only_the_sixteen_bit_output_after_an_int16_table_is_marked() -> None:
    graph = graph_with_tables()
    assert tosa_tables.wide_table_tensors(graph) == {"through_table"}
    assert tosa_tables.wide_table_outputs(graph) == [True, False, False]
