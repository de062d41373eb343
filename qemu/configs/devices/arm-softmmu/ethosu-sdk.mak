# The Ethos-U SDK's QEMU: only the MPS2/MPS3 boards (mps3-an547 and its
# Ethos-U NPU, which CONFIG_MPS2 selects).
CONFIG_MPS2=y
# mps2-tz.c creates a PL031 RTC that CONFIG_MPS2 does not select.
CONFIG_PL031=y
