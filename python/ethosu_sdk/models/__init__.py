"""In-house model zoo: deterministic weights from a seed, no downloads."""

from ethosu_sdk.models.registry import (
    ZOO,
    LoadedModel,
    UnknownModelError,
    ZooEntry,
    example_inputs,
    load_model,
    model_names,
)

__all__ = ["ZOO", "LoadedModel", "UnknownModelError", "ZooEntry", "example_inputs", "load_model", "model_names"]
