"""operators.yaml against PyTorch's and ExecuTorch's own operator schemas,
and the parsing and code generation built on it."""

from __future__ import annotations

import importlib

import kernel_codegen
import operator_table
import pytest
import torch

# Modules that register the non-aten operators' schemas with torch.
SCHEMA_MODULES = (
    "torch.ao.quantization.fx._decomposed",  # quantized_decomposed
    "executorch.kernels.quantized",  # their .out variants
    "executorch.exir.passes.dim_order_ops_registry",  # dim_order_ops
    # cortex_m (cortex_m/operators.yaml), through its passes: importing the
    # operators module first is circular in executorch 1.5.1.
    "executorch.backends.cortex_m.passes",
)


def torch_schema(name: str) -> str:
    namespace, rest = name.split("::")
    op, overload = rest.split(".")
    return str(getattr(getattr(getattr(torch.ops, namespace), op), overload)._schema)


def test_every_schema_is_pytorchs() -> None:
    for module in SCHEMA_MODULES:
        importlib.import_module(module)
    for op in operator_table.load():
        assert op.schema == torch_schema(op.name), op.name


def test_types_and_value_count() -> None:
    op = operator_table.parse_operator(
        "ns::f.out(Tensor a, Tensor? b, int[2] c=[], SymInt? d=None, *, Scalar e=1, Tensor(a!) out) -> Tensor(a!)",
        "FOut",
    )
    assert op.name == "ns::f.out"
    assert [a.type.cpp for a in op.args] == [
        "const Tensor&",
        "const Tensor*",
        "IntList",
        "std::optional<int64_t>",
        "double",
        "Tensor&",
    ]
    assert op.values == 7  # six arguments and the returned value


def test_a_type_without_unboxing_is_an_error() -> None:
    with pytest.raises(operator_table.TableError, match="Device"):
        operator_table.parse_operator("ns::f.out(Tensor a, Device d, *, Tensor(a!) out) -> Tensor(a!)", "F")


def test_registration_holds_only_the_selection() -> None:
    table = {op.name: op for op in operator_table.load()}
    source = kernel_codegen.registration_source([table["aten::add.out"]])
    assert "UnboxedAddOut" in source and "kAddOutName" in source
    assert "MulOut" not in source
    assert "kRegistry(kKernels, 1)" in source


def test_header_declares_every_kernel_once() -> None:
    operators = operator_table.load()
    header = kernel_codegen.header_source(operators)
    for op in operators:
        assert header.count(f"Status {op.kernel}(") == 1, op.kernel


# Elementwise unary kernels whose input and out have one shape: right in any
# dim order. Nothing that broadcasts, reduces, indexes or copies bytes
# between layouts (_clone_dim_order) may be among them.
ANY_DIM_ORDER = {
    "aten::relu.out",
    "aten::hardtanh.out",
    "aten::clamp.out",
    "aten::sigmoid.out",
    "aten::exp.out",
    "aten::reciprocal.out",
    "aten::rsqrt.out",
    "aten::gelu.out",
    "aten::tanh.out",
    "quantized_decomposed::quantize_per_tensor.out",
    "quantized_decomposed::dequantize_per_tensor.out",
}


def test_only_elementwise_unary_kernels_take_any_dim_order() -> None:
    marked = {op.name for op in operator_table.load() if op.any_dim_order}
    assert marked == ANY_DIM_ORDER


def test_registration_carries_the_dim_order_flag() -> None:
    table = {op.name: op for op in operator_table.load()}
    source = kernel_codegen.registration_source([table["aten::relu.out"], table["aten::add.out"]])
    assert "{kReluOutName, &UnboxedReluOut, true}," in source
    assert "{kAddOutName, &UnboxedAddOut, false}," in source


def test_a_dim_order_other_than_any_is_an_error(tmp_path) -> None:
    table = tmp_path / "operators.yaml"
    table.write_text(
        "- func: aten::relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  kernel: ReluOut\n  dim_order: channels_last\n"
    )
    with pytest.raises(operator_table.TableError, match="dim_order"):
        operator_table.load(str(table))
