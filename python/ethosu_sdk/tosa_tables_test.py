"""tosa_tables on a graph built with the TOSA tools' own serializer: a
16-bit output computed through an int16 TABLE is marked; a 16-bit output
beside it that does not depend on the table, and an int8 TABLE's output
(exact: one entry per input), are not."""

import tosa_serializer as ts

from ethosu_sdk import tosa_tables

# TOSA's int16 TABLE: 513 entries, interpolated.
WIDE_TABLE_ENTRIES = 513
NARROW_TABLE_ENTRIES = 256


def _attribute(kind: str) -> ts.TosaSerializerAttribute:
    attribute = ts.TosaSerializerAttribute()
    getattr(attribute, kind)()
    return attribute


def _graph() -> bytes:
    graph = ts.TosaSerializer("", targetMajor=1, targetMinor=0, targetPatch=0, targetDraft=False)
    graph.addInputTensor(ts.TosaSerializerTensor("x16", [4], ts.DType.INT16, data=None))
    graph.addInputTensor(ts.TosaSerializerTensor("x8", [4], ts.DType.INT8, data=None))
    wide = graph.addConst([WIDE_TABLE_ENTRIES], ts.DType.INT16, [0] * WIDE_TABLE_ENTRIES, name="wide_table")
    narrow = graph.addConst([NARROW_TABLE_ENTRIES], ts.DType.INT8, [0] * NARROW_TABLE_ENTRIES, name="narrow_table")
    looked_up = graph.addIntermediate([4], ts.DType.INT32)
    graph.addOperator(ts.Op.TABLE, ["x16", wide.name], [looked_up.name], _attribute("TableAttribute"))
    through = ts.TosaSerializerTensor("through_table", [4], ts.DType.INT16, data=None)
    graph.currRegion.currBasicBlock.addTensor(through.name, through.shape, through.dtype)
    graph.addOperator(ts.Op.CAST, [looked_up.name], [through.name], _attribute("CastAttribute"))
    beside = ts.TosaSerializerTensor("beside_table", [4], ts.DType.INT16, data=None)
    graph.currRegion.currBasicBlock.addTensor(beside.name, beside.shape, beside.dtype)
    graph.addOperator(ts.Op.IDENTITY, ["x16"], [beside.name], _attribute("IdentityAttribute"))
    exact = ts.TosaSerializerTensor("narrow_lookup", [4], ts.DType.INT8, data=None)
    graph.currRegion.currBasicBlock.addTensor(exact.name, exact.shape, exact.dtype)
    graph.addOperator(ts.Op.TABLE, ["x8", narrow.name], [exact.name], _attribute("TableAttribute"))
    for output in (through, beside, exact):
        graph.addOutputTensor(output)
    return graph.serialize()


def test_only_the_sixteen_bit_output_after_an_int16_table_is_marked() -> None:
    graph = _graph()
    assert tosa_tables.wide_table_tensors(graph) == {"through_table"}
    assert tosa_tables.wide_table_outputs(graph) == [True, False, False]
