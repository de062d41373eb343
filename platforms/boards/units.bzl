"""Byte units for the board descriptors' memory regions."""

KIB = 1024
MIB = 1024 * KIB
