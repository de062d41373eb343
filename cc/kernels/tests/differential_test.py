"""The generated differential suite: the OpInfo samples of one or more
operator families' operators (DIFFERENTIAL_FAMILY, comma-separated; one
test each, one executorch.runtime worker for all), run on our host runner
and on executorch.runtime (differential.py)."""

from __future__ import annotations

import os

import differential
import operator_table
import pytest

# OpInfo names per family: the operators of one or two kernel files.
FAMILIES = {
    "compare": [
        "eq",
        "ne",
        "lt",
        "le",
        "gt",
        "ge",
        "logical_and",
        "logical_or",
        "logical_xor",
        "logical_not",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "bitwise_not",
        "isnan",
        "isinf",
        "maximum",
        "minimum",
        "where",
        "bitwise_left_shift",
        "bitwise_right_shift",
    ],
    "unary": [
        "abs",
        "neg",
        "sign",
        "floor",
        "ceil",
        "trunc",
        "round",
        "sqrt",
        "log",
        "log2",
        "log10",
        "log1p",
        "expm1",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "sinh",
        "cosh",
        "asinh",
        "acosh",
        "atanh",
        "erf",
        "nn.functional.leaky_relu",
        "nn.functional.elu",
        "logit",
        "exp",
        "sigmoid",
        "tanh",
        "reciprocal",
        "rsqrt",
        "nn.functional.relu",
        "nn.functional.hardtanh",
        "clamp",
        "nn.functional.gelu",
        "nn.functional.glu",
    ],
    "binary": [
        "div",
        "true_divide",
        "floor_divide",
        "remainder",
        "fmod",
        "pow",
        "atan2",
        "add",
        "sub",
        "mul",
        "rsub",
    ],
    "index": [
        "index_select",
        "nn.functional.embedding",
        "gather",
        "select",
        "flip",
        "argmax",
        "argmin",
        "nn.functional.interpolate",
        "index_put",
        "scatter",
        "scatter_add",
        "topk",
        "take_along_dim",
        "masked_scatter",
    ],
    "layout": [
        "transpose",
        "t",
        "squeeze",
        "narrow_copy",
        "stack",
        "split",
        "split_with_sizes",
        "unbind",
        "repeat",
        "constant_pad_nd",
        "slice_scatter",
        "select_scatter",
        "masked_fill",
        "tril",
        "roll",
        "nn.functional.pad",
        "diagonal",
        "as_strided",
        "unfold",
        "cat",
        "permute",
        "nn.functional.pixel_shuffle",
        "nn.functional.pixel_unshuffle",
    ],
    "reduction": [
        "amin",
        "amax",
        "max",
        "min",
        "any",
        "prod",
        "var",
        "var_mean",
        "mean",
        "sum",
        "cumsum",
        "log_softmax",
        "softmax",
    ],
    "norm": [
        "nn.functional.group_norm",
        "nn.functional.layer_norm",
        "nn.functional.adaptive_avg_pool2d",
        "nn.functional.batch_norm",
        "mm",
        "bmm",
        "addmm",
        "nn.functional.avg_pool2d",
        "nn.functional.max_pool2d",
        "nn.functional.linear",
        "_native_batch_norm_legit",
        "nn.functional.instance_norm",
        "cdist",
        "nn.functional.pdist",
        "_upsample_bilinear2d_aa",
        "grid_sampler_2d",
        "nn.functional.grid_sample",
    ],
    "convolution": [
        "nn.functional.conv1d",
        "nn.functional.conv2d",
        "nn.functional.conv3d",
        "nn.functional.conv_transpose1d",
        "nn.functional.conv_transpose2d",
    ],
    "creation": [
        "full_like",
        "zeros_like",
        "ones_like",
        "fill",
        "float",
        "long",
        "int",
        "bool",
        "byte",
        "char",
        "clone",
        "to",
        "detach",
    ],
}

RUNNER = "sim/host/host_runner"
# Families whose kernels read every tensor's dim order (operators.yaml's
# `dim_order: kernel`): in the channels-last mode ours refuses none of
# their samples.
DIM_ORDER_KERNEL_FAMILIES = {"convolution"}


def operator_sample(operators: list[str], sample: str, rotation: int = 0) -> list[str]:
    """DIFFERENTIAL_OPERATORS "OFFSET/PERIOD": every PERIOD-th operator of
    the family from OFFSET (the everyday tier's stratified sample), "0/1"
    all of them. The n-th family of a run starts `rotation` = n further on,
    so that a sample of many families does not take each one's first
    operators only."""
    offset, period = (int(part) for part in sample.split("/"))
    return operators[(offset + rotation) % period :: period]


_FAMILIES_RUN = os.environ.get("DIFFERENTIAL_FAMILY", "").split(",")


@pytest.mark.parametrize("rotation,family", list(enumerate(_FAMILIES_RUN)), ids=_FAMILIES_RUN)
def test_family_matches_executorch(rotation: int, family: str) -> None:
    implemented = {op.name for op in operator_table.load()}
    operators = operator_sample(FAMILIES[family], os.environ.get("DIFFERENTIAL_OPERATORS", "0/1"), rotation)
    outcome = differential.run_family(RUNNER, operators, implemented)
    pairs = sum(outcome.per_operator.values())
    print(
        f"\n{family}: {pairs} (operator, sample) pairs compared in {outcome.compared} programs "
        f"({outcome.batched} holding several samples; {outcome.exported} programs exported), "
        f"{outcome.refused_by_both} refused by both, {outcome.eager_reference} compared with PyTorch eager "
        f"(differential.EAGER_REFERENCE), {len(outcome.refused_by_ours)} refused by ours only "
        f"(differential.REFUSED_BY_OURS), {len(outcome.skipped)} skipped"
    )
    for operator, count in sorted(outcome.per_operator.items()):
        print(f"  {operator}: {count}")
    for line in outcome.refused_by_ours:
        print(f"  refused by ours only: {line}")
    for line in outcome.skipped:
        print(f"  skipped {line}")
    assert not outcome.failures, "\n".join(outcome.failures)
    if differential.DIM_ORDER == "channels_last" and family in DIM_ORDER_KERNEL_FAMILIES:
        assert not outcome.refused_by_ours, "\n".join(outcome.refused_by_ours)
    # A family that compares nothing tests nothing.
    assert outcome.compared > 0
