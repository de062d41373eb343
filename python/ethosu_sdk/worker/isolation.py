"""A clean process state for each request of a persistent worker.

The baseline is what the worker looks like after its imports, before any
request: each request starts from it and the worker returns to it after.
Restored: working directory, environment, sys.argv, sys.path, sys.stdin/stdout/stderr
objects, logging (levels, handlers, filters of every logger; loggers a
request created are reset), warning filters and their once-registries,
modules imported by the request from outside the Python installation (model
code: its module state starts fresh next time), torch's thread count, default
dtype, grad mode and deterministic-algorithms setting, and TorchDynamo's
caches. Each request gets its own temporary directory (TMPDIR and
tempfile.tempdir) and seeded random number generators.

The one-shot CLI starts from unseeded generators (torch seeds itself from
the OS at import), so its outputs cannot depend on them; the worker still
seeds them, so any dependence would at least be the same from request to
request.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import logging
import os
import random
import sys
import sysconfig
import tempfile
import warnings
from typing import Any, Iterator, Optional

import numpy as np
import torch

RNG_SEED = 0


@dataclasses.dataclass(frozen=True)
class _LoggerState:
    level: int
    handlers: tuple[logging.Handler, ...]
    filters: tuple[Any, ...]
    propagate: bool
    disabled: bool

    @staticmethod
    def of(logger: logging.Logger) -> "_LoggerState":
        return _LoggerState(
            logger.level, tuple(logger.handlers), tuple(logger.filters), logger.propagate, logger.disabled
        )

    def apply(self, logger: logging.Logger) -> None:
        logger.setLevel(self.level)
        logger.handlers[:] = list(self.handlers)
        logger.filters[:] = list(self.filters)
        logger.propagate = self.propagate
        logger.disabled = self.disabled


_FRESH_LOGGER = _LoggerState(logging.NOTSET, (), (), True, False)


def _loggers() -> dict[str, logging.Logger]:
    found = {
        name: logger for name, logger in logging.root.manager.loggerDict.items() if isinstance(logger, logging.Logger)
    }
    found[""] = logging.root
    return found


def _library_roots() -> tuple[str, ...]:
    """Directories of the Python installation and the venv's packages."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots.update(p for p in (sysconfig.get_paths().get(k) for k in ("stdlib", "purelib", "platlib")) if p)
    return tuple(os.path.join(os.path.realpath(r), "") for r in roots)


@dataclasses.dataclass(frozen=True)
class Baseline:
    cwd: str
    environ: dict[str, str]
    argv: list[str]
    path: list[str]
    streams: tuple[Any, Any, Any]
    modules: frozenset[str]
    loggers: dict[str, _LoggerState]
    logging_disable: int
    warning_filters: list[Any]
    tempdir: Optional[str]
    torch_threads: int
    torch_dtype: torch.dtype
    torch_deterministic: bool
    library_roots: tuple[str, ...]

    @staticmethod
    def capture() -> "Baseline":
        return Baseline(
            cwd=os.getcwd(),
            environ=dict(os.environ),
            argv=list(sys.argv),
            path=list(sys.path),
            streams=(sys.stdin, sys.stdout, sys.stderr),
            modules=frozenset(sys.modules),
            loggers={name: _LoggerState.of(logger) for name, logger in _loggers().items()},
            logging_disable=logging.root.manager.disable,
            warning_filters=list(warnings.filters),
            tempdir=tempfile.tempdir,
            torch_threads=torch.get_num_threads(),
            torch_dtype=torch.get_default_dtype(),
            torch_deterministic=torch.are_deterministic_algorithms_enabled(),
            library_roots=_library_roots(),
        )

    def restore(self) -> None:
        os.chdir(self.cwd)
        os.environ.clear()
        os.environ.update(self.environ)
        sys.argv[:] = self.argv
        sys.path[:] = self.path
        sys.stdin, sys.stdout, sys.stderr = self.streams
        self._restore_logging()
        warnings.filters[:] = self.warning_filters  # type: ignore[index]  # a list at run time
        warnings._filters_mutated()  # type: ignore[attr-defined]  # forget "once" warnings shown
        tempfile.tempdir = self.tempdir
        self._forget_request_modules()
        torch.set_num_threads(self.torch_threads)
        torch.set_default_dtype(self.torch_dtype)
        torch.set_grad_enabled(True)
        torch.use_deterministic_algorithms(self.torch_deterministic)
        reset_torch_compiler()

    def _restore_logging(self) -> None:
        logging.disable(self.logging_disable)
        for name, logger in _loggers().items():
            self.loggers.get(name, _FRESH_LOGGER).apply(logger)

    def _forget_request_modules(self) -> None:
        """Drops modules a request imported from outside the Python
        installation (model definitions): their state must not leak into the
        next request. Library modules stay: importing them is what the worker
        saves."""
        for name in [n for n in sys.modules if n not in self.modules]:
            path = getattr(sys.modules.get(name), "__file__", None)
            if path and not os.path.realpath(path).startswith(self.library_roots):
                del sys.modules[name]


def reset_torch_compiler() -> None:
    import torch._dynamo  # a library module: imported once

    torch._dynamo.reset()


def seed_rngs(seed: int = RNG_SEED) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


@contextlib.contextmanager
def clean_request(baseline: Baseline, temp_dir: str) -> Iterator[None]:
    """Runs the block from the baseline state with `temp_dir` as its
    temporary directory, and returns the process to the baseline after."""
    baseline.restore()
    os.environ["TMPDIR"] = temp_dir
    tempfile.tempdir = temp_dir
    seed_rngs()
    try:
        yield
    finally:
        baseline.restore()
        gc.collect()  # a lowered graph can hold hundreds of MB
