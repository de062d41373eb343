"""Ethos-U SDK: PyTorch model to Cortex-M + Ethos-U firmware, on a simulated board."""
