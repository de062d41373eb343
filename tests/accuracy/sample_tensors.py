"""One labelled evaluation sample as a firmware's embedded input and expected
output (ethosu_firmware's `input` and `expected`): the sample in the program's
layout and input quantization, and the output the host runner (the functional
NPU model) gives for it, so the firmware's PASS on QEMU means the device gave
the host's answer.

    sample_tensors --pte=m.pte --summary=m.summary.json --eval_dir=DIR \
        --sample=0003.npz --host_runner=host_runner \
        --input_out=s.input.tensors --expected_out=s.expected.tensors
"""

from __future__ import annotations

import sys

from absl import app, flags

from ethosu_sdk.aot.options import Summary
from ethosu_sdk.evaluate.dataset import EvaluationError
from ethosu_sdk.report import eval_samples
from ethosu_sdk.tensors import StoredTensor, encode

FLAGS = flags.FLAGS
flags.DEFINE_string("pte", None, "The compiled program (.pte).", required=True)
flags.DEFINE_string("summary", None, "Its ethosu_model summary (.summary.json).", required=True)
flags.DEFINE_string("eval_dir", None, "The evaluation directory.", required=True)
flags.DEFINE_string("sample", None, "The sample's file name in --eval_dir (e.g. 0003.npz).", required=True)
flags.DEFINE_string("host_runner", None, "//sim/host:host_runner.", required=True)
flags.DEFINE_string("input_out", None, "Where to write the input .tensors.", required=True)
flags.DEFINE_string("expected_out", None, "Where to write the expected output .tensors.", required=True)


def main(argv: list[str]) -> int:
    del argv
    try:
        summary = Summary.read(FLAGS.summary)
        samples = {s.name: s for s in eval_samples.load_samples(FLAGS.eval_dir, summary)}
        if FLAGS.sample not in samples:
            raise eval_samples.ScoresError(f"--sample={FLAGS.sample} is not a sample of {FLAGS.eval_dir}")
        tensors = eval_samples.program_inputs(samples[FLAGS.sample], summary.inputs)
        with open(FLAGS.input_out, "wb") as f:
            f.write(tensors)
        run = eval_samples.run_host(FLAGS.host_runner, FLAGS.pte, FLAGS.input_out, FLAGS.sample)
    except (eval_samples.ScoresError, EvaluationError, OSError, ValueError) as e:
        print(f"sample_tensors: error: {e}", file=sys.stderr)
        return 2
    outputs = [StoredTensor(run.outputs[i], spec.scale, spec.zero_point) for i, spec in enumerate(summary.outputs)]
    with open(FLAGS.expected_out, "wb") as f:
        f.write(encode(outputs))
    return 0


if __name__ == "__main__":
    sys.exit(app.run(main))
