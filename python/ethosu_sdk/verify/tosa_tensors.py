"""Every intermediate tensor of a TOSA graph, from the TOSA reference model.

The reference model returns only a graph's outputs, so the graph is
rewritten with every operator's result listed as an output: flatc turns the
flatbuffer into JSON with the TOSA schema that the installed ExecuTorch
serialises with, the block's output list is replaced, and flatc turns it
back. The operators and constants are untouched.
"""

import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
from typing import Dict, List, Tuple

import numpy as np
import tosa_reference_model
from tosa.Op import Op
from tosa.TosaGraph import TosaGraph

_NOT_RESULTS = ("CONST", "CONST_SHAPE")


def _schema_for(graph: bytes) -> str:
    version = TosaGraph.GetRootAs(graph, 0).Version()
    name = f"tosa_{version._Major()}.{version._Minor()}.fbs"
    # Located, not imported: importing executorch would import torch.
    spec = importlib.util.find_spec("executorch")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("executorch is not installed (its TOSA schemas are needed)")
    path = os.path.join(list(spec.submodule_search_locations)[0], "backends", "arm", "tosa", "schemas", name)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no TOSA schema {name} in the installed executorch ({path})")
    return path


def _flatc() -> str:
    flatc = shutil.which("flatc")
    if flatc is None:
        raise FileNotFoundError("flatc not on PATH (the SDK's build root provides it)")
    return flatc


def with_all_results_as_outputs(graph: bytes) -> tuple[bytes, List[str]]:
    """Returns the graph with every operator result as an output, and their names."""
    schema = _schema_for(graph)
    with tempfile.TemporaryDirectory() as work:
        src = os.path.join(work, "graph.tosa")
        with open(src, "wb") as f:
            f.write(graph)
        subprocess.run([_flatc(), "--json", "--strict-json", "--raw-binary", "-o", work, schema, "--", src], check=True)
        with open(os.path.join(work, "graph.json")) as f:
            doc = json.load(f)
        blocks = [b for r in doc["regions"] for b in r["blocks"]]
        if len(blocks) != 1:
            raise ValueError(f"expected one basic block, got {len(blocks)}")
        # A graph output may be a constant (ExecuTorch folds a value
        # computed at AOT time, e.g. `aten_full_default_pre_computed`): kept,
        # so the reference model returns it like any other output.
        outputs = set(blocks[0].get("outputs", []))
        names = [
            out
            for op in blocks[0]["operators"]
            for out in op["outputs"]
            if op["op"] not in _NOT_RESULTS or out in outputs
        ]
        blocks[0]["outputs"] = names
        with open(os.path.join(work, "all.json"), "w") as f:
            json.dump(doc, f)
        subprocess.run([_flatc(), "--binary", "-o", work, schema, os.path.join(work, "all.json")], check=True)
        with open(os.path.join(work, "all.tosa"), "rb") as f:
            return f.read(), names


def num_inputs(graph: bytes) -> int:
    return TosaGraph.GetRootAs(graph, 0).Regions(0).Blocks(0).InputsLength()


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def graph_io(graph: bytes) -> Tuple[List[Tuple[str, Tuple[int, ...]]], List[str]]:
    """The graph's inputs (name, shape) and output names, in order."""
    block = TosaGraph.GetRootAs(graph, 0).Regions(0).Blocks(0)
    shapes = {}
    for i in range(block.TensorsLength()):
        tensor = block.Tensors(i)
        shapes[_text(tensor.Name())] = tuple(int(d) for d in tensor.ShapeAsNumpy()) if tensor.ShapeLength() else ()
    inputs = [_text(block.Inputs(i)) for i in range(block.InputsLength())]
    outputs = [_text(block.Outputs(i)) for i in range(block.OutputsLength())]
    return [(name, shapes.get(name, ())) for name in inputs], outputs


def operators(graph: bytes) -> List[str]:
    """The graph's operator names (TOSA's Op enum), in order."""
    names = {value: name for name, value in vars(Op).items() if not name.startswith("_")}
    block = TosaGraph.GetRootAs(graph, 0).Regions(0).Blocks(0)
    return [names.get(block.Operators(i).Op(), str(block.Operators(i).Op())) for i in range(block.OperatorsLength())]


# TOSA's control-flow operators: their branches and loop bodies are further
# basic blocks of the graph.
CONTROL_FLOW = ("COND_IF", "WHILE_LOOP")


def control_flow(graph: bytes) -> List[str]:
    """The control-flow operators of the graph's main block, in order (none
    for a one-block graph)."""
    return [op for op in operators(graph) if op in CONTROL_FLOW]


def unpredictable(graph: bytes) -> str:
    """Why the reference model gave no result, and what to do. UNPREDICTABLE
    is the TOSA spec's word for a result it leaves undefined for these
    values (the NPU still computes one, so nothing here can check it)."""
    cause = (
        "a SCATTER writes one position twice (repeated indices, e.g. index_put with a repeated index)"
        if "SCATTER" in operators(graph)
        else "an operation's result is undefined for these values"
    )
    return (
        f"the TOSA reference model calls this graph's result UNPREDICTABLE for the example input: {cause}, "
        "which the TOSA spec leaves undefined, so the NPU program cannot be verified against it; "
        'verify with an input that avoids it, or set verify = "warn" to build unverified'
    )


def reference_tensors(graph: bytes, inputs: List[np.ndarray]) -> Dict[str, np.ndarray]:
    """Runs the TOSA reference model; returns every operator result by name."""
    return run_rewritten(*with_all_results_as_outputs(graph), inputs)


def run_rewritten(rewritten: bytes, names: List[str], inputs: List[np.ndarray]) -> Dict[str, np.ndarray]:
    """reference_tensors on a graph with_all_results_as_outputs made."""
    outputs, status = tosa_reference_model.run(rewritten, inputs)
    if status == tosa_reference_model.GraphStatus.TOSA_UNPREDICTABLE:
        raise RuntimeError(unpredictable(rewritten))
    if status != tosa_reference_model.GraphStatus.TOSA_VALID:
        raise RuntimeError(f"TOSA reference model: {status}")
    if len(outputs) != len(names):
        raise RuntimeError(f"TOSA reference model returned {len(outputs)} tensors for {len(names)}")
    return {name: np.asarray(value) for name, value in zip(names, outputs)}
