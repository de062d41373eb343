"""Builds nothing, measures: for each firmware, its section sizes (text,
data, bss from arm-none-eabi-size) and, run once on QEMU, the instructions per
inference (board timer under -icount), split into what the Cortex-M runs for
the model and what simulating the NPU costs. Prints a Markdown table."""

from __future__ import annotations

import os

from absl import app, flags

from ethosu_sdk.runner import boards, elf_size, model_run, protocol, simulate

FLAGS = flags.FLAGS
flags.DEFINE_multi_string("firmware", [], "Firmware ELF (repeatable).")
flags.DEFINE_float("timeout", 900.0, "Seconds per run.")


def main(argv: list[str]) -> None:
    del argv
    board = boards.get("qemu_an547")
    print("| firmware | text | data | bss | result | CPU instructions / inference | NPU model instructions |")
    print("|---|---|---|---|---|---|---|")
    for elf in FLAGS.firmware:
        name = os.path.basename(elf).removesuffix(".elf")
        sizes = elf_size.image_sizes(elf)
        _, output = simulate.run(board.command(boards.RunOptions(elf=elf)), FLAGS.timeout, echo=None)
        run = protocol.parse(output)
        cost = model_run.costs(run)
        result = run.result or "no result"
        if run.errors:
            result += ": " + run.errors[0][:60]
        cpu = f"{cost.cpu_instructions:,}" if cost else "-"
        npu = f"{cost.npu_model_instructions:,}" if cost else "-"
        print(f"| {name} | {sizes.text:,} | {sizes.data:,} | {sizes.bss:,} | {result} | {cpu} | {npu} |", flush=True)


if __name__ == "__main__":
    app.run(main)
