"""A request's changes to the process do not reach the next request."""

from __future__ import annotations

import logging
import os
import random
import sys
import tempfile
import warnings

import numpy as np
import torch

from ethosu_sdk.worker.isolation import Baseline, clean_request


def draws() -> tuple[float, float, float]:
    return random.random(), float(np.random.rand()), float(torch.rand(1))


def test_state_is_restored_and_rngs_seeded(tmp_path) -> None:
    baseline = Baseline.capture()
    module_dir = tmp_path / "models"
    module_dir.mkdir()
    (module_dir / "request_model.py").write_text("COUNT = 0\n")
    seen = []
    for index in range(2):
        request_tmp = tmp_path / f"tmp{index}"
        request_tmp.mkdir()
        with clean_request(baseline, str(request_tmp)):
            assert tempfile.gettempdir() == str(request_tmp) == os.environ["TMPDIR"]
            seen.append(draws())
            sys.path.insert(0, str(module_dir))
            import request_model  # type: ignore[import-not-found]

            request_model.COUNT += 1
            assert request_model.COUNT == 1  # a fresh module each request
            os.chdir(tmp_path)
            os.environ["REQUEST_ONLY"] = "1"
            logging.getLogger("torch").setLevel(logging.CRITICAL)
            logging.getLogger("new.request.logger").addHandler(logging.NullHandler())
            logging.disable(logging.ERROR)
            warnings.simplefilter("ignore")
            torch.set_num_threads(1)
            torch.set_grad_enabled(False)
            torch.set_default_dtype(torch.float64)
            sys.path.pop(0)
        assert os.getcwd() == baseline.cwd
        assert "REQUEST_ONLY" not in os.environ and os.environ.get("TMPDIR") == baseline.environ.get("TMPDIR")
        assert "request_model" not in sys.modules
        assert logging.getLogger("torch").level == baseline.loggers["torch"].level
        assert logging.getLogger("new.request.logger").handlers == []
        assert logging.root.manager.disable == baseline.logging_disable
        assert warnings.filters == baseline.warning_filters
        assert torch.get_num_threads() == baseline.torch_threads
        assert torch.is_grad_enabled() and torch.get_default_dtype() == baseline.torch_dtype
        assert tempfile.tempdir == baseline.tempdir
    assert seen[0] == seen[1]  # the same seeds each request
