"""Our .pte reader against ExecuTorch's own deserializer, on every built .pte."""

import glob
import os

import pytest

from ethosu_sdk.pte import PteError, delegate_payload, parse_pte, vela_blocks

PTE_FILES = sorted(glob.glob("tests/aot/*.pte"))
# The zoo models this run covers (BUILD.bazel: the everyday tier's, or the
# full tier's MobileNetV2).
ZOO = os.environ.get("AOT_ZOO", "mobilenet_v2,kws_dscnn,resnet_blocks,mlp_softmax,transformer_block").split(",")


def test_artifacts_are_present():
    # each zoo model x (U55, U85, TOSA, CPU fp32, CPU int8)
    assert len(PTE_FILES) == 5 * len(ZOO), PTE_FILES


@pytest.mark.parametrize("path", PTE_FILES, ids=os.path.basename)
def test_reader_agrees_with_executorch(path):
    from executorch.exir._serialize._program import deserialize_pte_binary

    blob = open(path, "rb").read()
    ours = parse_pte(blob)
    theirs = deserialize_pte_binary(blob).program
    assert [p.name for p in ours.plans] == [p.name for p in theirs.execution_plan]
    for plan, ref in zip(ours.plans, theirs.execution_plan):
        assert list(plan.operators) == [f"{o.name}.{o.overload}" if o.overload else o.name for o in ref.operators]
        assert [d.id for d in plan.delegates] == [d.id for d in ref.delegates]
        assert len(plan.inputs) == len(ref.inputs) and len(plan.outputs) == len(ref.outputs)
        for index, delegate in enumerate(plan.delegates):
            # ExecuTorch's deserializer re-inlines segment data.
            expected = theirs.backend_delegate_data[ref.delegates[index].processed.index].data
            assert delegate_payload(blob, ours, plan.name, index) == bytes(expected)
            assert delegate.payload_size == len(expected)
            if delegate.id == "EthosUBackend":
                blocks = vela_blocks(bytes(expected))
                assert blocks["cmd_data"] > 0 and "weight_data" in blocks


@pytest.mark.parametrize(
    "mutate",
    [lambda b: b[:12], lambda b: b[:4] + b"XX12" + b[8:], lambda b: b[:8] + b"eh00" + b"\xff" * 20 + b[32:]],
    ids=["truncated", "identifier", "header_sizes"],
)
def test_corrupt_files_are_rejected(mutate):
    blob = open(PTE_FILES[0], "rb").read()
    with pytest.raises(PteError):
        parse_pte(mutate(blob))


def test_truncated_segment_is_rejected():
    path = next(p for p in PTE_FILES if "u85" in p)
    blob = open(path, "rb").read()
    with pytest.raises(PteError):
        parse_pte(blob[: len(blob) - 100])
