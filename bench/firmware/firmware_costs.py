"""Builds nothing, measures: for each firmware, its section sizes (text,
data, bss from arm-none-eabi-size) and, run once on QEMU, the instructions per
inference (board timer under -icount), and how many of them the backend's NPU
calls take (copies, cache maintenance, the driver). Prints a Markdown table."""

from __future__ import annotations

import os

from absl import app, flags

from ethosu_sdk.runner import boards, elf_size, model_run, protocol, simulate

FLAGS = flags.FLAGS
flags.DEFINE_multi_string("firmware", [], "Firmware ELF and its board, ELF:BOARD (repeatable).")
flags.DEFINE_float("timeout", 900.0, "Seconds per run.")
flags.DEFINE_string("simulator", None, "QEMU with the SDK's Ethos-U device.")
flags.DEFINE_string("npu_library", None, "The device core QEMU's Ethos-U device loads.")


def main(argv: list[str]) -> None:
    del argv
    print("| firmware | text | data | bss | result | CPU instructions / inference | of which NPU calls |")
    print("|---|---|---|---|---|---|---|")
    for entry in FLAGS.firmware:
        elf, _, board_name = entry.rpartition(":")
        board = boards.get(board_name)
        name = os.path.basename(elf).removesuffix(".elf")
        sizes = elf_size.image_sizes(elf)
        # "kws_dscnn_u85_256" ran on an ethos-u85-256; CPU-only models on the board's default NPU.
        npu = boards.parse_npu("ethos-" + "-".join(name.rsplit("_", 2)[-2:]))
        options = boards.RunOptions(elf=elf, npu=npu, simulator=FLAGS.simulator, npu_library=FLAGS.npu_library)
        _, output = simulate.run(board.command(options), FLAGS.timeout, echo=None)
        run = protocol.parse(output)
        cost = model_run.costs(run)
        result = run.result or "no result"
        if run.errors:
            result += ": " + run.errors[0][:60]
        cpu = f"{cost.cpu_instructions:,}" if cost else "-"
        npu = f"{cost.npu_call_instructions:,}" if cost else "-"
        print(f"| {name} | {sizes.text:,} | {sizes.data:,} | {sizes.bss:,} | {result} | {cpu} | {npu} |", flush=True)


if __name__ == "__main__":
    app.run(main)
