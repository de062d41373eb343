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
    op, _, overload = rest.partition(".")  # an in-place op (copy_) has no overload name
    overload = overload or "default"
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


# Elementwise kernels (broadcasting included), right in any dim order when
# a call's tensors share one rank and one dim order: the runtime shows them
# their tensors in memory order. Nothing that reduces, indexes by
# dimension or copies bytes between layouts (_clone_dim_order) may be among
# them.
ANY_DIM_ORDER = {
    "aten::abs.out",
    "aten::acos.out",
    "aten::acosh.out",
    "aten::add.Scalar_out",
    "aten::add.out",
    "aten::asin.out",
    "aten::asinh.out",
    "aten::atan.out",
    "aten::atan2.out",
    "aten::atanh.out",
    "aten::bitwise_and.Scalar_out",
    "aten::bitwise_and.Tensor_out",
    "aten::bitwise_left_shift.Tensor_Scalar_out",
    "aten::bitwise_left_shift.Tensor_out",
    "aten::bitwise_not.out",
    "aten::bitwise_or.Scalar_out",
    "aten::bitwise_or.Tensor_out",
    "aten::bitwise_right_shift.Tensor_Scalar_out",
    "aten::bitwise_right_shift.Tensor_out",
    "aten::bitwise_xor.Scalar_out",
    "aten::bitwise_xor.Tensor_out",
    "aten::ceil.out",
    "aten::clamp.Tensor_out",
    "aten::clamp.out",
    "aten::cos.out",
    "aten::cosh.out",
    "aten::div.Scalar_mode_out",
    "aten::div.Scalar_out",
    "aten::div.out",
    "aten::div.out_mode",
    "aten::elu.out",
    "aten::eq.Scalar_out",
    "aten::eq.Tensor_out",
    "aten::erf.out",
    "aten::exp.out",
    "aten::expm1.out",
    "aten::fill.Scalar_out",
    "aten::floor.out",
    "aten::floor_divide.out",
    "aten::fmod.Scalar_out",
    "aten::fmod.Tensor_out",
    "aten::ge.Scalar_out",
    "aten::ge.Tensor_out",
    "aten::gelu.out",
    "aten::gt.Scalar_out",
    "aten::gt.Tensor_out",
    "aten::hardtanh.out",
    "aten::isinf.out",
    "aten::isnan.out",
    "aten::le.Scalar_out",
    "aten::le.Tensor_out",
    "aten::leaky_relu.out",
    "aten::log.out",
    "aten::log10.out",
    "aten::log1p.out",
    "aten::log2.out",
    "aten::logical_and.out",
    "aten::logical_not.out",
    "aten::logical_or.out",
    "aten::logical_xor.out",
    "aten::logit.out",
    "aten::lt.Scalar_out",
    "aten::lt.Tensor_out",
    "aten::masked_fill.Scalar_out",
    "aten::maximum.out",
    "aten::minimum.out",
    "aten::mul.Scalar_out",
    "aten::mul.out",
    "aten::ne.Scalar_out",
    "aten::ne.Tensor_out",
    "aten::neg.out",
    "aten::pow.Tensor_Scalar_out",
    "aten::pow.Tensor_Tensor_out",
    "aten::reciprocal.out",
    "aten::relu.out",
    "aten::remainder.Scalar_out",
    "aten::remainder.Tensor_out",
    "aten::round.out",
    "aten::rsqrt.out",
    "aten::rsub.Scalar_out",
    "aten::sigmoid.out",
    "aten::sign.out",
    "aten::sin.out",
    "aten::sinh.out",
    "aten::sqrt.out",
    "aten::sub.Scalar_out",
    "aten::sub.out",
    "aten::tan.out",
    "aten::tanh.out",
    "aten::trunc.out",
    "aten::where.self_out",
    "quantized_decomposed::dequantize_per_tensor.out",
    "quantized_decomposed::quantize_per_tensor.out",
}


def test_only_elementwise_kernels_take_any_dim_order() -> None:
    marked = {op.name for op in operator_table.load() if op.any_dim_order}
    assert marked == ANY_DIM_ORDER


def test_registration_carries_the_dim_order_flag() -> None:
    table = {op.name: op for op in operator_table.load()}
    source = kernel_codegen.registration_source([table["aten::relu.out"], table["aten::mm.out"]])
    assert "{kReluOutName, &UnboxedReluOut, true}," in source
    assert "{kMmOutName, &UnboxedMmOut, false}," in source


def test_a_dim_order_other_than_any_is_an_error(tmp_path) -> None:
    table = tmp_path / "operators.yaml"
    table.write_text(
        "- func: aten::relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  kernel: ReluOut\n  dim_order: channels_last\n"
    )
    with pytest.raises(operator_table.TableError, match="dim_order"):
        operator_table.load(str(table))
