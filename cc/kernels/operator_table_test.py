"""operators.yaml against PyTorch's and ExecuTorch's own operator schemas,
and the parsing and code generation built on it."""

from __future__ import annotations

import importlib

import pytest
import torch

import kernel_codegen
import operator_table

# Modules that register the non-aten operators' schemas with torch.
SCHEMA_MODULES = (
    "torch.ao.quantization.fx._decomposed",  # quantized_decomposed
    "executorch.kernels.quantized",  # their .out variants
    "executorch.exir.passes.dim_order_ops_registry",  # dim_order_ops
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
        "ns::f.out(Tensor a, Tensor? b, int[2] c=[], SymInt? d=None, *, Scalar e=1, "
        "Tensor(a!) out) -> Tensor(a!)", "FOut")
    assert op.name == "ns::f.out"
    assert [a.type.cpp for a in op.args] == [
        "const Tensor&", "const Tensor*", "IntList", "std::optional<int64_t>", "double", "Tensor&"]
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
