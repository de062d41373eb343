"""Ethos-U SDK: PyTorch model to Cortex-M + Ethos-U firmware, on a simulated board."""

from ethosu_sdk import host_numerics

# Before anything in this process loads torch or NumPy (host_numerics.py).
host_numerics.pin_environment()
