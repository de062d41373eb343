"""The operator table (operators.yaml): each operator's name, overload and
typed arguments, parsed from its schema.

A .pte's KernelCall lists the schema's arguments in order (keyword-only
ones included), then one value for what the operator returns; `Operator`
describes each of those values and the C++ type its kernel receives.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Dict, List, Sequence, Tuple

import yaml

# The tables sit beside the kernels they describe, one level up.
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(_HERE, "operators.yaml")
# Every table the generators read, in order: the portable kernels, then
# ExecuTorch's cortex_m:: int8 operators (cortex_m/operators.yaml).
TABLES = (TABLE, os.path.join(_HERE, "cortex_m", "operators.yaml"))


@dataclasses.dataclass(frozen=True)
class ArgType:
    """How one schema type is checked (`kind`, an ArgKind enumerator of
    unboxing.h), read (`reader`, unboxing.h) and declared (`cpp`)."""

    kind: str
    reader: str
    cpp: str


# Schema type (array sizes removed: int[2] -> int[]) -> unboxing.
_TYPES: Dict[str, ArgType] = {
    "Tensor": ArgType("kTensor", "TensorValue", "const Tensor&"),
    "Tensor!": ArgType("kTensor", "TensorValue", "Tensor&"),  # written: Tensor(a!)
    "Tensor?": ArgType("kOptionalTensor", "OptionalTensorValue", "const Tensor*"),
    "Tensor[]": ArgType("kTensorList", "TensorListValue", "TensorList"),
    "Tensor?[]": ArgType("kOptionalTensorList", "OptionalTensorListValue", "OptionalTensorList"),
    "Tensor[]!": ArgType("kTensorList", "TensorListValue", "TensorList"),  # written: Tensor(a!)[]
    "Scalar": ArgType("kScalar", "ScalarValue", "double"),
    "Scalar?": ArgType("kOptionalScalar", "OptionalScalarValue", "std::optional<double>"),
    "float": ArgType("kScalar", "ScalarValue", "double"),
    "float?": ArgType("kOptionalScalar", "OptionalScalarValue", "std::optional<double>"),
    "int": ArgType("kInt", "IntValue", "int64_t"),
    "int?": ArgType("kOptionalInt", "OptionalIntValue", "std::optional<int64_t>"),
    "bool": ArgType("kBool", "BoolValue", "bool"),
    "int[]": ArgType("kIntList", "IntListValue", "IntList"),
    "int[]?": ArgType("kOptionalIntList", "OptionalIntListValue", "std::optional<IntList>"),
    "str": ArgType("kString", "StringValue", "String"),
    "str?": ArgType("kOptionalString", "OptionalStringValue", "std::optional<String>"),
    "float[]?": ArgType("kOptionalDoubleList", "OptionalDoubleListValue", "std::optional<DoubleList>"),
}
# Types the .pte stores as ints.
_ALIASES = {"SymInt": "int", "ScalarType": "int", "MemoryFormat": "int"}

# What the returned value(s) take in the KernelCall: one value, not passed on.
RETURNED = ArgType("kReturned", "", "")

_SCHEMA = re.compile(r"^(?P<ns>\w+)::(?P<op>\w+)(?:\.(?P<overload>\w+))?\((?P<args>.*)\)\s*->\s*(?P<ret>.+)$")
_ALIAS_ANNOTATION = re.compile(r"\([a-z]+(!?)\)")
_ARRAY_SIZE = re.compile(r"\[\d+\]")
_CPP_KEYWORDS = {"default", "delete", "new", "operator", "template", "this", "union", "register"}


class TableError(Exception):
    """A table entry the generators cannot use."""


@dataclasses.dataclass(frozen=True)
class Arg:
    name: str
    type: ArgType


@dataclasses.dataclass(frozen=True)
class Operator:
    name: str  # "aten::add.out": how a .pte names it
    schema: str
    kernel: str  # the C++ kernel function
    args: Tuple[Arg, ...]  # the schema's, in order
    any_dim_order: bool = False  # `dim_order: any`: right for tensors in any one dim order
    kernel_dim_order: bool = False  # `dim_order: kernel`: the kernel reads every tensor's dim order

    @property
    def values(self) -> int:
        """Values of its KernelCall: the arguments and the returned value."""
        return len(self.args) + 1


def _split_top_level(text: str) -> List[str]:
    """`text` split at commas outside brackets (defaults may be lists)."""
    parts: List[str] = []
    depth, start = 0, 0
    for i, c in enumerate(text):
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _arg_type(schema_type: str) -> ArgType:
    mutable = bool(_ALIAS_ANNOTATION.search(schema_type)) and "!" in schema_type
    base = _ALIAS_ANNOTATION.sub("", schema_type)
    base = _ARRAY_SIZE.sub("[]", base)
    optional = base.endswith("?")
    core = base.rstrip("?")
    is_list = core.endswith("[]")
    core = core[:-2] if is_list else core
    core = _ALIASES.get(core, core)
    key = core + ("[]" if is_list else "") + ("?" if optional else "") + ("!" if mutable else "")
    if key not in _TYPES:
        raise TableError(f"schema type {schema_type} has no unboxing (unboxing.h, operator_table.py)")
    return _TYPES[key]


def parse_operator(schema: str, kernel: str, any_dim_order: bool = False, kernel_dim_order: bool = False) -> Operator:
    match = _SCHEMA.match(schema.strip())
    if match is None:
        raise TableError(f"not an operator schema: {schema}")
    args = []
    for text in _split_top_level(match["args"]):
        if text == "*":  # keyword-only arguments follow; the .pte lists them in order
            continue
        declaration = text.split("=", 1)[0].split()  # "TYPE NAME", the default dropped
        if len(declaration) != 2:
            raise TableError(f"argument {text!r} of {schema}")
        schema_type, name = declaration
        name += "_" if name in _CPP_KEYWORDS else ""
        args.append(Arg(name, _arg_type(schema_type)))
    # An operator returning () (split_copy writes its out list) still has
    # one returned value in the KernelCall: ExecuTorch's emitter lists the
    # out list again.
    overload = match["overload"]
    name = f"{match['ns']}::{match['op']}" + (f".{overload}" if overload else "")
    return Operator(name, schema.strip(), kernel, tuple(args), any_dim_order, kernel_dim_order)


def _dim_order(entry: Dict[str, str]) -> str | None:
    """An entry's `dim_order`: absent (the default dim order only), `any` or
    `kernel` (the kernel handles each tensor's dim order itself)."""
    value = entry.get("dim_order")
    if value not in (None, "any", "kernel"):
        raise TableError(f"{entry['func']}: dim_order is {value!r}; the values are 'any' and 'kernel'")
    return value


def load(paths: str | Sequence[str] = TABLES) -> List[Operator]:
    """Every operator of the tables (one path or several), in their order;
    raises TableError."""
    operators: List[Operator] = []
    for path in [paths] if isinstance(paths, str) else paths:
        with open(path) as f:
            entries = yaml.safe_load(f)
        operators += [
            parse_operator(e["func"], e["kernel"], _dim_order(e) == "any", _dim_order(e) == "kernel") for e in entries
        ]
    for seen in ({o.name for o in operators}, {o.kernel for o in operators}):
        if len(seen) != len(operators):
            raise TableError(f"{paths}: an operator or kernel is listed twice")
    return operators
