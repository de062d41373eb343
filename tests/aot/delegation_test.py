"""Which operators each target delegates, from the .pte and the summary."""

import json
import os

import pytest

from ethosu_sdk.pte import read_pte

# The zoo models this run covers (BUILD.bazel: the everyday tier's, or the
# full tier's MobileNetV2).
ZOO = os.environ.get("AOT_ZOO", "mobilenet_v2,kws_dscnn,resnet_blocks,mlp_softmax,transformer_block").split(",")
TARGETS = {"u55_128": "ethos-u55-128", "u85_256": "ethos-u85-256", "tosa_int": "TOSA-1.0+INT"}
QDQ = {"quantized_decomposed::quantize_per_tensor.out", "quantized_decomposed::dequantize_per_tensor.out"}


def load(name):
    with open(f"tests/aot/{name}.summary.json") as f:
        summary = json.load(f)
    return summary, read_pte(f"tests/aot/{name}.pte")


@pytest.mark.skipif("mobilenet_v2" not in ZOO, reason="MobileNetV2 is in the full tier")
def test_mobilenet_v2_on_u85_is_one_delegate_with_only_qdq_on_cpu():
    summary, program = load("mobilenet_v2_u85_256")
    plan = program.plan()
    assert [d.id for d in plan.delegates] == ["EthosUBackend"]
    assert set(plan.kernel_calls) == QDQ
    assert summary["fully_delegated"] and summary["delegates"][0]["payload_bytes"] == plan.delegates[0].payload_size
    assert summary["vela_total"]["macs"] > 290_000_000  # MobileNetV2 1.0 at 224x224 is ~300 M MACs
    assert summary["system_config"] == "Ethos_U85_SYS_DRAM_Mid" and summary["memory_mode"] == "Sram_Only"


@pytest.mark.parametrize("model", ZOO)
@pytest.mark.parametrize("short", TARGETS)
def test_summary_matches_the_pte(model, short):
    summary, program = load(f"{model}_{short}")
    plan = program.plan()
    assert summary["target"] == TARGETS[short]
    assert summary["pte"]["size_bytes"] == program.file_size
    assert summary["pte_kernel_calls"] == plan.kernel_calls
    expected_backend = "TOSABackend" if short == "tosa_int" else "EthosUBackend"
    assert plan.delegates and all(d.id == expected_backend for d in plan.delegates)
    assert plan.delegate_calls == len(plan.delegates)
    if short != "tosa_int":
        assert len(summary["vela"]) == len(plan.delegates)
        assert summary["vela_total"]["npu_cycles"] > 0


@pytest.mark.parametrize("model", ZOO)
@pytest.mark.parametrize("short", ["u85_256", "tosa_int"])
def test_u85_and_tosa_delegate_every_zoo_model_whole(model, short):
    _, program = load(f"{model}_{short}")
    plan = program.plan()
    assert len(plan.delegates) == 1
    assert set(plan.kernel_calls) <= QDQ, plan.kernel_calls


def test_undelegable_operator_stays_on_cpu_and_summary_says_so():
    summary, program = load("partly_delegated_u55_128")
    assert "aten::sort.values" in program.plan().kernel_calls
    assert summary["cpu_operators"].get("aten_sort_default") == 1
    assert not summary["fully_delegated"]
    assert "aten_linear_default" in summary["delegated_operators"]
