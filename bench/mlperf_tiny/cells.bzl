"""The MLPerf Tiny table's cells: four models on eight targets. BUILD.bazel
declares them, bench.py reads these two literals (cells.py) to run them."""

# The four reference architectures (tests/cortex_m/mlperf_tiny.py).
MODELS = [
    "ds_cnn_kws",
    "mobilenet_v1_025_vww",
    "resnet8_ic",
    "deep_autoencoder_ad",
]

# Short name: (compile target, board). The Ethos-U55 and U65 sit beside the
# Cortex-M55 of QEMU's SSE-300 machine (mps3-an547, the SDK's Ethos-U
# device); the Ethos-U85 is built into Corstone-320 (Cortex-M85).
TARGETS = {
    "m4": ("cortex-m4", "qemu_an386"),
    "m7": ("cortex-m7", "qemu_an500"),
    "m33": ("cortex-m33", "qemu_an505"),
    "m55": ("cortex-m55", "qemu_an547"),
    "m85": ("cortex-m85", "corstone320"),
    "u55": ("ethos-u55-128", "qemu_an547"),
    "u65": ("ethos-u65-256", "qemu_an547"),
    "u85": ("ethos-u85-256", "corstone320"),
}
