"""A TOSA graph for the tests of tosa_tables and its readers, built with
the TOSA tools' own serializer: int16 `x16` through an int16 TABLE and a
CAST to the 16-bit output `through_table`; `x16` copied to the 16-bit
output `beside_table`; int8 `x8` through an int8 TABLE to `narrow_lookup`
(exact: one entry per input)."""

import tosa_serializer as ts

# Output names, in the graph's output order.
OUTPUTS = ("through_table", "beside_table", "narrow_lookup")
# TOSA's int16 TABLE: 513 entries, interpolated.
WIDE_TABLE_ENTRIES = 513
NARROW_TABLE_ENTRIES = 256


def _attribute(kind: str) -> ts.TosaSerializerAttribute:
    attribute = ts.TosaSerializerAttribute()
    getattr(attribute, kind)()
    return attribute


def graph_with_tables() -> bytes:
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
