"""Differential testing of the CPU kernels against ExecuTorch's portable
kernels, generated from PyTorch's OpInfo samples.

For each OpInfo of a family and each of its sample inputs (dtypes the
kernels take), a one-operator program is exported (torch.export, to_edge,
to_executorch: what a user's model goes through), run on `executorch.runtime`
and on our host runner (every kernel registered), and the outputs compared:
integers, bools and data movement exactly, floats within the operator's
tolerance (`tolerance`). A sample ExecuTorch refuses must be refused by ours
with one `ESDK ERROR` line. Tensor inputs are made contiguous (a .pte's
inputs are dense); Python numbers, dims and flags are baked into the program.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
import select
import subprocess
import sys
import tempfile
import warnings
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np
import reference_worker
import torch
from torch.utils import _pytree as pytree

from ethosu_sdk.runner import protocol
from ethosu_sdk.tensors.tensor_file import write_tensor_file

# The dtypes exercised: what ordinary models carry on the CPU (token ids
# and indices are int64).
DTYPES = (torch.float32, torch.int64, torch.int32, torch.uint8, torch.bool)
# Dtypes beyond DTYPES for some OpInfos, with why: the cortex_m quantizer's
# fallback max pool runs the portable max_pool2d_with_indices on int8.
EXTRA_DTYPES = {"nn.functional.max_pool2d": (torch.int8,)}
# Samples per (OpInfo, dtype): enough for broadcasting, scalars, empty and
# zero-size tensors, which OpInfo lists first; keeps a family within minutes.
# OpInfo samples per (operator, dtype): the full tier (`--config=full`) takes
# 5; the everyday tier (`bazel test //...`) the first of each
# (DIFFERENTIAL_MAX_SAMPLES), which keeps a cold CI inside its budget while
# every operator and dtype is still run.
MAX_SAMPLES = int(os.environ.get("DIFFERENTIAL_MAX_SAMPLES", "5"))

# The dim order the samples are fed in (issue 46): "default", or
# "channels_last": each sample whose tensors share one shape is reshaped to
# 4-D, (1, p, n / p, 1) for its n elements and their smallest factor p > 1
# (an elementwise operator does not see the shape), and fed channels-last;
# ExecuTorch's portable kernels take that for their elementwise operators
# (all tensors in one dim order), and the outputs, channels-last too, are
# compared in memory order, as the runner prints them. Other samples are
# not run in this mode.
DIM_ORDER = os.environ.get("DIFFERENTIAL_DIM_ORDER", "default")

# Operators that index by dimension and read every tensor's dim order
# (operators.yaml's `dim_order: kernel`): in the "channels_last" mode their
# samples keep their shapes and the 4-D ones are fed channels-last
# (activation and weight alike), as a channels-last model hands them over.
LAYOUT_AWARE = {"nn.functional.conv2d", "nn.functional.conv_transpose2d"}

# Float tolerance: |ours - reference| <= atol + rtol * |reference|. The
# default is the runner's own rel1e-5 rule (cc/runner/PROTOCOL.md): results
# computed in float32 by either side, differing only in summation order.
DEFAULT_TOLERANCE = (1e-5, 1e-6)
# Operators whose float results come from a libm function or a longer
# formula: the two libraries' float32 evaluations differ by a few ulp.
TRANSCENDENTAL_TOLERANCE = (1e-5, 1e-5)
TRANSCENDENTAL = {
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
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "exp",
    "sigmoid",
    "tanh",
    "pow",
    "atan2",
    "logit",
    "elu",
    "gelu",
    "rsqrt",
    "sqrt",
    "upsample_bilinear2d",
    "reciprocal",
    "div",
    "leaky_relu",
}


# Where ExecuTorch's portable kernel and PyTorch disagree, ours follows
# PyTorch and the program's outputs are compared with PyTorch eager instead;
# likewise for a sample on which executorch.runtime aborts the process.
EAGER_REFERENCE = {
    # ExecuTorch 1.5.1 truncates the integer quotient (C's %): remainder(-8, 6)
    # is -2 there, 4 in PyTorch (the divisor's sign, floored).
    "aten::remainder.Tensor_out": "ExecuTorch's integer remainder truncates; PyTorch's floors",
    "aten::remainder.Scalar_out": "ExecuTorch's integer remainder truncates; PyTorch's floors",
}
# The same by OpInfo, where only some uses of an operator need it:
# ExecuTorch 1.5.1's portable convolution refuses 3-D inputs
# (InvalidArgument), while its 1-D and 2-D ones stay compared with it.
EAGER_REFERENCE_OPINFOS = {
    "nn.functional.conv3d": "ExecuTorch's portable convolution takes 1-D and 2-D only",
}
# Indices of tied values come in an unspecified order (ExecuTorch selects
# with std::nth_element): their values are compared exactly and each index
# must point at its value in the input.
TIE_ORDER_FREE = {"aten::topk.values"}


# Kernels that take float32 only for now (they predate issue 31); their
# integer samples are not run and COVERAGE.md's note lists them.
FLOAT_ONLY = {
    "mm",
    "bmm",
    "addmm",
    "nn.functional.conv1d",
    "nn.functional.conv2d",
    "nn.functional.conv3d",
    "nn.functional.conv_transpose1d",
    "nn.functional.conv_transpose2d",
    "nn.functional.avg_pool2d",
    "nn.functional.linear",
    "nn.functional.batch_norm",
    "nn.functional.layer_norm",
    "amax",
    "sum",
    "mean",
    "softmax",
}
# Samples ExecuTorch runs and ours refuses at load in one line, by design
# for now: the message and the reason. Counted and printed, not failed.
REFUSED_BY_OURS = {
    "this kernel takes tensors in the default dim order only": "a conversion into another dim order (x.float(memory_format=torch.channels_last)): "
    "the runtime's kernels other than `dim_order: any` ones take the default dim order",
    "antialiased resize takes float32 only": "a uint8 antialiased resize: ExecuTorch's accumulates in uint8 and differs "
    "from PyTorch's (fixed-point weights) by up to 7; ours takes float32",
}
# OpInfo variants not run, with the reason.
NOT_RUN = {"softmax.with_dtype": "a float64 softmax; the _softmax kernel takes float32 only"}


def _no_running_stats(samples: List[Any]) -> List[Any]:
    def running(sample: Any) -> bool:
        if "running_mean" in sample.kwargs:  # F.instance_norm
            return sample.kwargs["running_mean"] is not None
        return len(sample.args) > 2 and isinstance(sample.args[2], torch.Tensor)  # _native_batch_norm_legit

    return [s for s in samples if not running(s)]


def _modes_first(samples: List[Any]) -> List[Any]:
    """The 2-D grid samples (a 5-D grid is grid_sampler_3d) in an order that
    takes each mode (bilinear, nearest, bicubic: 6 padding/align_corners
    variants each) before the next variant of any."""
    flat = [s for s in samples if (s.args[0] if s.args else s.kwargs["grid"]).dim() == 4]
    return [s for _, s in sorted(enumerate(flat), key=lambda pair: pair[0] % 6)]


def _conv_forms_first(samples: List[Any]) -> List[Any]:
    """The batched samples, one per set of keyword arguments (stride,
    padding, dilation, groups), the most combined first, so the first
    samples cover them all."""
    forms: Dict[Tuple[str, ...], Any] = {}
    for s in samples:
        if s.input.dim() == s.args[0].dim():  # unbatched ones only add an unsqueeze
            forms.setdefault(tuple(sorted(s.kwargs)), s)
    return [s for _, s in sorted(forms.items(), key=lambda pair: -len(pair[0]))]


# OpInfos whose samples are filtered or reordered before the first
# MAX_SAMPLES are taken, with the reason.
SAMPLE_SELECTION: Dict[str, Tuple[Callable[[List[Any]], List[Any]], str]] = {
    "_native_batch_norm_legit": (
        _no_running_stats,
        "running statistics updated in place export as _native_batch_norm_legit_functional, "
        "which has no out variant (no runtime runs it): the samples without them",
    ),
    "nn.functional.instance_norm": (_no_running_stats, "as _native_batch_norm_legit"),
    "grid_sampler_2d": (_modes_first, "every interpolation mode within the first samples"),
    "nn.functional.grid_sample": (_modes_first, "as grid_sampler_2d; 3-D grids are grid_sampler_3d"),
    "nn.functional.conv3d": (_conv_forms_first, "each form of the arguments within the first samples"),
}


def tolerance(operator: str) -> Tuple[float, float]:
    """(rtol, atol) for float outputs of `operator` ("aten::sin.out")."""
    base = operator.split("::")[-1].split(".")[0]
    return TRANSCENDENTAL_TOLERANCE if base in TRANSCENDENTAL else DEFAULT_TOLERANCE


_INPUT = object()  # marks a leaf that is a forward input (None is a real leaf value)


class _Calls(torch.nn.Module):
    """fn(*args, **kwargs) for each of several samples, the tensor leaves of
    all of them the forward's inputs, every tensor result an output."""

    def __init__(self, fn: Callable[..., Any], specs: List[Any], leaves: List[List[Any]]) -> None:
        super().__init__()
        self.fn, self.specs = fn, specs
        self.constants = [[_INPUT if isinstance(x, torch.Tensor) else x for x in ls] for ls in leaves]

    def forward(self, *tensors: torch.Tensor) -> Tuple[torch.Tensor, ...]:
        it = iter(tensors)
        outputs: List[torch.Tensor] = []
        for spec, constants in zip(self.specs, self.constants):
            leaves = [next(it) if c is _INPUT else c for c in constants]
            args, kwargs = pytree.tree_unflatten(leaves, spec)
            result = self.fn(*args, **kwargs)
            outputs += [r for r in pytree.tree_leaves(result) if isinstance(r, torch.Tensor)]
        return tuple(outputs)


def _in_dim_order(x: torch.Tensor) -> torch.Tensor:
    """A dense input in the mode's dim order (DIM_ORDER)."""
    if DIM_ORDER == "channels_last" and x.dim() == 4:
        return x.contiguous(memory_format=torch.channels_last)
    return x.contiguous()


def in_memory_order(array: np.ndarray, dim_order: Sequence[int]) -> np.ndarray:
    """A logical array as a program's tensor of `dim_order` holds it (what
    tensor files and the runner's outputs are)."""
    if len(dim_order) != array.ndim or list(dim_order) == list(range(array.ndim)):
        return array
    return np.ascontiguousarray(array.transpose(list(dim_order)))


def as_channels_last_sample(sample: Any) -> Optional[Any]:
    """`sample` with its tensors reshaped to one 4-D shape whose
    channels-last layout differs from the default one, or None when its
    tensors differ in shape or their size has no such shape."""
    from torch.testing._internal.opinfo.core import SampleInput

    leaves, spec = pytree.tree_flatten(((sample.input, *sample.args), dict(sample.kwargs)))
    tensors = [x for x in leaves if isinstance(x, torch.Tensor)]
    if not tensors or any(t.shape != tensors[0].shape for t in tensors):
        return None
    n = tensors[0].numel()
    factor = next((k for k in range(2, n) if n % k == 0), None)
    if factor is None or n // factor < 2:
        return None
    shape = (1, factor, n // factor, 1)
    reshaped = [x.reshape(shape) if isinstance(x, torch.Tensor) else x for x in leaves]
    (first, *args), kwargs = pytree.tree_unflatten(reshaped, spec)
    return SampleInput(first, args=tuple(args), kwargs=kwargs)


def _export(
    fn: Callable[..., Any], samples: Sequence[Any]
) -> Tuple[bytes, List[torch.Tensor], Dict[str, int], torch.nn.Module, List[List[int]], List[List[int]]]:
    """One program calling fn on every sample: its bytes, inputs and how many
    times it calls each operator."""
    from executorch.exir import EdgeCompileConfig, to_edge

    specs, leaves = [], []
    for sample in samples:
        flat, spec = pytree.tree_flatten(((sample.input, *sample.args), dict(sample.kwargs)))
        specs.append(spec)
        leaves.append(flat)
    module = _Calls(fn, specs, leaves)
    inputs = [_in_dim_order(x) for ls in leaves for x in ls if isinstance(x, torch.Tensor)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exported = torch.export.export(module, tuple(inputs), strict=False)
        program = to_edge(exported, compile_config=EdgeCompileConfig(_check_ir_validity=False)).to_executorch()
    plan = program.executorch_program.execution_plan[0]
    calls: Dict[str, int] = {}
    for chain in plan.chains:
        for instruction in chain.instructions:
            op_index = getattr(instruction.instr_args, "op_index", None)
            if op_index is not None:
                op = plan.operators[op_index]
                name = f"{op.name}.{op.overload}" if op.overload else op.name
                calls[name] = calls.get(name, 0) + 1
    values = plan.values

    def dim_orders(indices: Sequence[int]) -> List[List[int]]:
        return [list(getattr(values[i].val, "dim_order", None) or []) for i in indices]

    return program.buffer, inputs, calls, module, dim_orders(plan.inputs), dim_orders(plan.outputs)


def opinfos(names: Sequence[str]) -> List[Any]:
    from torch.testing._internal.common_methods_invocations import op_db

    wanted = set(names)
    return [op for op in op_db if op.name in wanted]


@dataclasses.dataclass
class Case:
    """One exported program: the samples of one (OpInfo, dtype), or one sample."""

    name: str  # "gt/float32" or "gt/float32/3"
    calls: Dict[str, int]  # operator -> KernelCalls in the program
    pte: bytes
    inputs: List[torch.Tensor]
    module: torch.nn.Module  # the exported module, for PyTorch eager outputs
    samples: List[Any]
    # The dim order of each input and output tensor of the program ([] for
    # a non-tensor value): tensor files and the runner hold memory order.
    input_dim_orders: List[List[int]]
    output_dim_orders: List[List[int]]

    @property
    def operators(self) -> Set[str]:
        return set(self.calls)


def export_case(name: str, fn: Callable[..., Any], samples: Sequence[Any], skipped: List[str]) -> Optional[Case]:
    try:
        pte, inputs, calls, module, input_orders, output_orders = _export(fn, samples)
    except Exception as e:  # torch.export or to_edge cannot take this sample
        first = str(e).splitlines()[0][:120] if str(e) else ""
        skipped.append(f"{name}: not exportable ({type(e).__name__}: {first})")
        return None
    return Case(name, calls, pte, inputs, module, list(samples), input_orders, output_orders)


def sample_groups(names: Sequence[str], skipped: List[str]) -> Iterator[Tuple[str, Any, List[Any]]]:
    """(label, fn, samples) per (OpInfo, dtype) of the named OpInfos."""
    for op in opinfos(names):
        label = op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")
        if label in NOT_RUN:
            skipped.append(f"{label}: not run: {NOT_RUN[label]}")
            continue
        supported = op.supported_dtypes("cpu")
        for dtype in DTYPES + EXTRA_DTYPES.get(op.name, ()):
            if dtype not in supported or (op.name in FLOAT_ONLY and dtype != torch.float32):
                continue
            try:
                samples = list(op.sample_inputs("cpu", dtype, requires_grad=False))
                if label in SAMPLE_SELECTION:
                    samples = SAMPLE_SELECTION[label][0](samples)
                if DIM_ORDER == "channels_last" and op.name in LAYOUT_AWARE:
                    samples = [s for s in samples if s.input.dim() == 4]
                elif DIM_ORDER == "channels_last":
                    samples = [c for c in map(as_channels_last_sample, samples) if c is not None]
                samples = samples[:MAX_SAMPLES]
            except Exception as e:  # an OpInfo's generator that needs CUDA or a module we lack
                skipped.append(f"{label}/{dtype}: no samples ({type(e).__name__})")
                continue
            if samples:
                yield f"{label}/{str(dtype).split('.')[-1]}", op.op, samples


def opinfo_batches(names: Sequence[str], skipped: List[str]) -> Iterator[Tuple[str, Any, List[List[Any]]]]:
    """(OpInfo label, fn, its (OpInfo, dtype) groups as [(name, sample)]
    lists): every sample of one OpInfo, all dtypes, for one program."""
    current: Optional[str] = None
    fn: Any = None
    groups: List[List[Any]] = []
    for label, group_fn, samples in sample_groups(names, skipped):
        opinfo = label.rsplit("/", 1)[0]
        if opinfo != current and groups:
            yield current or "", fn, groups
            groups = []
        current, fn = opinfo, group_fn
        groups.append([(f"{label}/{i}", sample) for i, sample in enumerate(samples)])
    if groups:
        yield current or "", fn, groups


@dataclasses.dataclass
class Outcome:
    compared: int = 0  # programs whose outputs matched
    batched: int = 0  # of them, programs holding more than one sample
    exported: int = 0  # programs exported (to_edge and to_executorch each), the suite's main cost
    refused_by_both: int = 0
    eager_reference: int = 0  # programs compared with PyTorch eager (EAGER_REFERENCE)
    refused_by_ours: List[str] = dataclasses.field(default_factory=list)  # REFUSED_BY_OURS
    failures: List[str] = dataclasses.field(default_factory=list)
    skipped: List[str] = dataclasses.field(default_factory=list)
    per_operator: Dict[str, int] = dataclasses.field(default_factory=dict)  # (operator, sample) pairs


class ExecuTorchCrashed(Exception):
    """executorch.runtime aborted the process (a failed assert in a kernel)."""


# How long one program may take on executorch.runtime (the largest run in
# well under a second; minutes only on a machine shared by many builds).
REFERENCE_TIMEOUT_S = 300.0


class Reference:
    """executorch.runtime in a worker process of its own
    (reference_worker.py), started once and again after a kernel aborts
    it: one interpreter start for a whole family instead of a fork per
    program, and no fork of this process's threads (a forked child once
    hung on a lock another thread held)."""

    def __init__(self) -> None:
        self._process: Optional[subprocess.Popen[bytes]] = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._process.poll() is not None:
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
            self._process = subprocess.Popen(
                [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference_worker.py")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
        return self._process

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def run(self, pte: bytes, inputs: List[torch.Tensor]) -> Any:
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        try:
            reference_worker.write_message(process.stdin, (pte, inputs))
            ready, _, _ = select.select([process.stdout], [], [], REFERENCE_TIMEOUT_S)
            answer = reference_worker.read_message(process.stdout) if ready else None
        except BrokenPipeError:
            answer = None
        if answer is None:
            status = process.poll()
            self._stop()
            if status is None:
                raise ExecuTorchCrashed(f"executorch.runtime did not answer within {REFERENCE_TIMEOUT_S:.0f} s")
            raise ExecuTorchCrashed(f"executorch.runtime died (exit status {status})")
        return answer

    def close(self) -> None:
        if self._process is not None and self._process.stdin is not None:
            self._process.stdin.close()
            self._process.wait()
            self._process = None


_REFERENCE = Reference()
atexit.register(_REFERENCE.close)


def reference(case: Case) -> Tuple[Optional[List[np.ndarray]], str]:
    """ExecuTorch's outputs, or None and its error; ExecuTorchCrashed when
    a portable kernel aborts on an input it does not expect."""
    result = _REFERENCE.run(case.pte, [t.clone() for t in case.inputs])
    return (None, result) if isinstance(result, str) else (result, "")


def ours(runner: str, case: Case, workdir: str) -> protocol.Run:
    pte_path = os.path.join(workdir, "case.pte")
    input_path = os.path.join(workdir, "case.tensors")
    with open(pte_path, "wb") as f:
        f.write(case.pte)
    # Tensor files hold arrays in memory order (schema/tensor_file.md).
    write_tensor_file(
        input_path,
        [in_memory_order(t.contiguous().numpy(), order) for t, order in zip(case.inputs, case.input_dim_orders)],
    )
    run = subprocess.run(
        [runner, f"--pte={pte_path}", f"--input={input_path}"], capture_output=True, text=True, timeout=60, check=False
    )
    parsed = protocol.parse(run.stdout)
    parsed.exit_status = run.returncode
    return parsed


def _mismatch(operator_set: Set[str], ref: np.ndarray, got: np.ndarray) -> Optional[str]:
    if got.dtype != ref.dtype or got.shape != ref.shape:
        return f"dtype/shape {got.dtype}{got.shape} vs ExecuTorch {ref.dtype}{ref.shape}"
    if np.issubdtype(ref.dtype, np.floating):
        rtol, atol = max(tolerance(o) for o in operator_set) if operator_set else DEFAULT_TOLERANCE
        same_nan = np.isnan(ref) == np.isnan(got)
        close = np.isclose(got, ref, rtol=rtol, atol=atol, equal_nan=True)
        if not (same_nan.all() and close.all()):
            bad = np.argwhere(~close).ravel()[:1]
            return f"float mismatch (rtol {rtol}, atol {atol}) at {bad}: ours {got.ravel()[bad]} vs {ref.ravel()[bad]}"
        return None
    if not np.array_equal(got, ref):
        return f"values differ: ours {got.ravel()[:8]} vs {ref.ravel()[:8]}"
    return None


def _check(runner: str, case: Case, implemented: Set[str], workdir: str, outcome: Outcome) -> Optional[str]:
    """Runs one case on both runtimes; None when it passed (and is counted),
    else why not. Skips a program that needs an operator with no kernel."""
    missing = case.operators - implemented
    if missing:
        return f"skip: program uses {sorted(missing)}, not in operators.yaml"
    try:
        expected, refusal = reference(case)
        eager = bool(case.operators & set(EAGER_REFERENCE)) or case.name.split("/")[0] in EAGER_REFERENCE_OPINFOS
    except ExecuTorchCrashed:
        expected, refusal, eager = [], "", True  # PyTorch eager decides
    got = ours(runner, case, workdir)
    if expected is None and DIM_ORDER == "channels_last" and got.result == "DONE" and got.exit_status == 0:
        # ExecuTorch 1.5.1 refuses a one-element operand (a decomposition's
        # scalar_tensor) beside channels-last tensors (its
        # tensors_have_same_dim_order); ours takes it: PyTorch decides.
        eager = True
    if eager:
        try:
            with torch.no_grad():
                reference_outputs = case.module(*[t.clone() for t in case.inputs])
            expected = [e.contiguous().numpy() for e in reference_outputs]
        except Exception as e:  # PyTorch refuses the sample too
            expected, refusal = None, f"PyTorch: {type(e).__name__}"
        outcome.eager_reference += 1
    if expected is not None:
        expected = [in_memory_order(e, order) for e, order in zip(expected, case.output_dim_orders)]
    if expected is None:
        if got.result == "ERROR" and got.exit_status != 0 and len(got.errors) == 1:
            outcome.refused_by_both += 1
            return None
        return f"ExecuTorch refused ({refusal[:100]}) but ours gave {got.result} with {len(got.errors)} error line(s)"
    if got.result != "DONE" or got.exit_status != 0:
        for message, reason in REFUSED_BY_OURS.items():
            if len(got.errors) == 1 and message in got.errors[0]:
                outcome.refused_by_ours.append(f"{case.name}: {reason}")
                return None
        return f"{sorted(case.operators)}: ours failed: {got.errors[:1]}"
    problems = []
    if len(got.outputs) != len(expected):
        problems.append(f"{len(got.outputs)} outputs vs {len(expected)}")
    for i, ref in enumerate(expected):
        if i in got.outputs:
            problem = _mismatch(case.operators, ref, got.outputs[i])
            if problem and case.operators <= TIE_ORDER_FREE and i % 2 == 1:
                problem = _tied_indices(case, i, got.outputs)
            if problem:
                problems.append(f"output {i}: {problem}")
    if problems:
        return f"{sorted(case.operators)}: {'; '.join(problems)}"
    outcome.compared += 1
    for operator, count in case.calls.items():
        outcome.per_operator[operator] = outcome.per_operator.get(operator, 0) + count
    return None


def _tied_indices(case: Case, i: int, outputs: Dict[int, np.ndarray]) -> Optional[str]:
    """topk's indices output `i` (sample i // 2): each index must select its
    value from the sample's input (the values were compared exactly)."""
    sample = case.samples[i // 2]
    dim = sample.args[1] if len(sample.args) > 1 else sample.kwargs.get("dim", -1)
    source = case.inputs[i // 2].numpy()
    if source.ndim == 0:
        return None if np.array_equal(outputs[i], np.zeros_like(outputs[i])) else "scalar topk index not 0"
    picked = np.take_along_axis(source, outputs[i].astype(np.int64), axis=dim)
    if not np.array_equal(picked, outputs[i - 1], equal_nan=np.issubdtype(source.dtype, np.floating)):
        return "indices do not select the values"
    return None


def _run_items(
    runner: str,
    name: str,
    fn: Callable[..., Any],
    parts: List[List[Any]],
    implemented: Set[str],
    workdir: str,
    outcome: Outcome,
) -> None:
    """Compares the samples of `parts` ([(name, sample)] lists) in one
    program; when that program fails anywhere, each part again alone (a
    single part: each of its samples), down to single samples, so that a
    failure or refusal names its sample and stops no other."""
    items = [item for part in parts for item in part]
    if len(items) == 1:
        name = items[0][0]
    case = export_case(name, fn, [sample for _, sample in items], outcome.skipped if len(items) == 1 else [])
    outcome.exported += 1
    if case is not None:
        compared, both, refused = outcome.compared, outcome.refused_by_both, len(outcome.refused_by_ours)
        eager = outcome.eager_reference
        problem = _check(runner, case, implemented, workdir, outcome)
        if problem is None and (outcome.compared > compared or len(items) == 1):
            outcome.batched += 1 if len(items) > 1 and outcome.compared > compared else 0
            return
        if len(items) == 1:
            if problem is not None and problem.startswith("skip: "):
                outcome.skipped.append(f"{case.name}: {problem[6:]}")
            elif problem is not None:
                outcome.failures.append(f"{case.name}: {problem}")
            return
        # A sample refused (by both or by ours only) or failing stops the
        # whole program: undo its counts and split it.
        outcome.refused_by_both, outcome.eager_reference = both, eager
        del outcome.refused_by_ours[refused:]
    elif len(items) == 1:
        return
    if len(parts) > 1:
        for part in parts:
            _run_items(runner, part[0][0].rsplit("/", 1)[0], fn, [part], implemented, workdir, outcome)
    else:
        for item in parts[0]:
            _run_items(runner, item[0], fn, [[item]], implemented, workdir, outcome)


def run_family(runner: str, names: Sequence[str], implemented: Set[str]) -> Outcome:
    """Exports, runs and compares every sample of the OpInfos `names`. The
    export dominates the cost (to_edge's decompositions take about a second
    per program, whatever its size), so every sample of an OpInfo, all
    dtypes, goes into one program; when it fails anywhere, each dtype's
    samples again in one program, and when that fails each sample alone,
    so a failure names its sample."""
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as workdir:
        for label, fn, groups in opinfo_batches(names, outcome.skipped):
            _run_items(runner, label, fn, groups, implemented, workdir, outcome)
    return outcome
