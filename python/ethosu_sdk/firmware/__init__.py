"""Build-time helpers of the firmware rules (tools/rules/firmware_model.bzl)."""
