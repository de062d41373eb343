"""PNG charts of Vela's per-layer estimates (matplotlib, headless)."""

from __future__ import annotations

import io
from typing import Sequence

import matplotlib

matplotlib.use("Agg")  # no display; must precede pyplot
import matplotlib.pyplot as plt  # noqa: E402

from ethosu_sdk.report.vela_layers import Layer  # noqa: E402

# Fixed metadata so the same data gives the same bytes.
_PNG_METADATA = {"Software": None}


def _finish(figure: "plt.Figure") -> bytes:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100, metadata=_PNG_METADATA)
    plt.close(figure)
    return buffer.getvalue()


def _operator_colours(layers: list[Layer]) -> tuple[list[str], dict[str, str]]:
    palette = plt.get_cmap("tab10").colors
    kinds = sorted({layer.operator for layer in layers})
    colour_of = {kind: matplotlib.colors.to_hex(palette[i % len(palette)]) for i, kind in enumerate(kinds)}
    return [colour_of[layer.operator] for layer in layers], colour_of


# How many of the costliest layers the cycles chart names.
_NAMED_LAYERS = 5


def cycles_per_layer(layers: list[Layer], title: str, names: Sequence[str] = ()) -> bytes:
    """Bar per layer, in network order, coloured by operator kind; the
    costliest layers labelled with `names` (their PyTorch modules) if given."""
    figure, axes = plt.subplots(figsize=(11, 4))
    colours, colour_of = _operator_colours(layers)
    cycles = [layer.cycles for layer in layers]
    axes.bar(range(len(layers)), cycles, color=colours, width=0.85)
    costliest = sorted(range(len(layers)), key=lambda i: -cycles[i])[:_NAMED_LAYERS]
    for i in costliest:
        if i < len(names) and names[i]:
            axes.annotate(
                names[i],
                (i, cycles[i]),
                textcoords="offset points",
                xytext=(0, 2),
                ha="center",
                fontsize=7,
                rotation=20,
            )
    if names:
        axes.set_ylim(top=max(cycles, default=0) * 1.2 or 1)  # room for the labels
    axes.set_xlabel("layer (network order)")
    axes.set_ylabel("NPU cycles (Vela estimate)")
    axes.set_title(title)
    handles = [matplotlib.patches.Patch(color=c, label=k) for k, c in colour_of.items()]
    axes.legend(handles=handles, fontsize=8, ncol=2, loc="upper right")
    axes.margins(x=0.01)
    return _finish(figure)


def memory_accesses_per_layer(layers: list[Layer], title: str) -> bytes:
    """Stacked SRAM and DRAM accesses per layer."""
    figure, axes = plt.subplots(figsize=(11, 4))
    positions = range(len(layers))
    sram = [layer.sram_accesses for layer in layers]
    dram = [layer.dram_accesses for layer in layers]
    axes.bar(positions, sram, width=0.85, label="SRAM", color="#4c72b0")
    axes.bar(positions, dram, width=0.85, bottom=sram, label="DRAM", color="#dd8452")
    axes.set_xlabel("layer (network order)")
    axes.set_ylabel("memory accesses (Vela estimate)")
    axes.set_title(title)
    axes.legend(fontsize=8)
    axes.margins(x=0.01)
    return _finish(figure)


def mac_utilisation_per_layer(layers: list[Layer], title: str) -> bytes:
    figure, axes = plt.subplots(figsize=(11, 3))
    axes.bar(range(len(layers)), [layer.mac_utilisation for layer in layers], width=0.85, color="#55a868")
    axes.set_xlabel("layer (network order)")
    axes.set_ylabel("MAC utilisation (% of peak)")
    axes.set_ylim(0, 100)
    axes.set_title(title)
    axes.margins(x=0.01)
    return _finish(figure)
