"""Verification of compiled models against the TOSA reference model (verify.py)."""
