"""Searches over compilations: Vela's options (tuner, stage_tune) and the precision (precision)."""
