"""Measures of the code's shape that review asks for: the length of every
function (Python by its syntax tree, C++ by its braces) and the import graph
of the Python package."""

from __future__ import annotations

import ast
import dataclasses
import os
import re
from typing import Iterator


@dataclasses.dataclass(frozen=True)
class Function:
    path: str
    name: str
    line: int
    lines: int  # from the signature's first line to the body's last, blank and comment lines included

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} is {self.lines} lines"


def python_functions(path: str) -> Iterator[Function]:
    """Every function and method of a Python file, nested ones too."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            end = node.end_lineno or node.lineno
            yield Function(path, node.name, node.lineno, end - node.lineno + 1)


_CPP_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# What opens a body that is not a function's: namespaces, types, initialisers.
_NOT_A_FUNCTION = re.compile(r"^\s*(template\s*<.*>\s*)?(namespace|class|struct|union|enum)\b|=\s*$|\]\s*$", re.S)
_FUNCTION_HEAD = re.compile(r"\)\s*(const|override|final|noexcept|->\s*[\w:<>,\s*&]+|\s)*$|\)\s*:\s*.*$", re.S)


def _blank_noise(text: str) -> str:
    """Comments and literals replaced by spaces, newlines kept (line numbers hold)."""
    return _CPP_NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def cpp_functions(path: str) -> Iterator[Function]:
    """The function bodies at namespace or class scope of a C++ file (a
    lambda inside a function counts toward its function)."""
    with open(path, encoding="utf-8") as f:
        text = _blank_noise(f.read())
    head_start = 0  # where the text before the next `{` begins
    stack: list[tuple[bool, int, str]] = []  # (a function's body, its first line, its name)
    inside = 0  # function bodies open
    for i, c in enumerate(text):
        if c in ";":
            head_start = i + 1
        elif c == "{":
            head = text[head_start:i]
            is_function = inside == 0 and bool(_FUNCTION_HEAD.search(head)) and not _NOT_A_FUNCTION.search(head)
            name = ""
            if is_function:
                found = re.findall(r"([~\w:]+)\s*\(", head)
                name = found[0] if found else "?"
                first = head_start + len(head) - len(head.lstrip())
                stack.append((True, text.count("\n", 0, first) + 1, name))
                inside += 1
            else:
                stack.append((False, 0, ""))
            head_start = i + 1
        elif c == "}":
            if stack:
                was_function, first_line, name = stack.pop()
                if was_function:
                    inside -= 1
                    yield Function(path, name, first_line, text.count("\n", 0, i) + 1 - first_line + 1)
            head_start = i + 1


def python_modules(root: str, package: str) -> dict[str, str]:
    """Module name -> path of every .py file under `root`/`package`."""
    found = {}
    for directory, _, files in os.walk(os.path.join(root, package)):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                parts = os.path.relpath(path, root)[: -len(".py")].split(os.sep)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                found[".".join(parts)] = path
    return found


def import_graph(modules: dict[str, str]) -> dict[str, set[str]]:
    """Module -> the modules of `modules` it imports, anywhere in its text
    (TYPE_CHECKING blocks and function bodies included: a cycle hidden from
    the interpreter is still one in the design)."""
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        edges = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(
                        package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                    )
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    edges.add(submodule if submodule in modules else base)
        graph[module] = {e for e in edges if e in modules and e != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found
