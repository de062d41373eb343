"""The compiled program's output for every labelled evaluation sample on the
host runner (eval_samples.py): a build action of ethosu_run, so the report
can show what the summary's top-1 counts cannot, the program's top-5 and its
confusion matrix.

    program_scores --pte=m.pte --summary=m.summary.json --eval_dir=DIR \
        --host_runner=host_runner --out=scores.json
"""

from __future__ import annotations

import json
import sys

from absl import app, flags

from ethosu_sdk.aot.options import Summary
from ethosu_sdk.evaluate.dataset import EvaluationError
from ethosu_sdk.report import eval_samples

FLAGS = flags.FLAGS
flags.DEFINE_string("pte", None, "The compiled program (.pte).", required=True)
flags.DEFINE_string(
    "summary", None, "Its ethosu_model summary (.summary.json): input quantization, layout.", required=True
)
flags.DEFINE_string("eval_dir", None, "The evaluation directory (.npz samples with a 'label' array).", required=True)
flags.DEFINE_string("host_runner", None, "//sim/host:host_runner.", required=True)
flags.DEFINE_string("out", None, "Where to write the scores (JSON).", required=True)


def main(argv: list[str]) -> int:
    del argv
    try:
        try:
            summary = Summary.read(FLAGS.summary)
        except (OSError, ValueError) as e:
            raise eval_samples.ScoresError(
                f"cannot read --summary={FLAGS.summary} ({getattr(e, 'strerror', None) or e}): "
                "give the model's .summary.json"
            ) from e
        result = eval_samples.score(
            FLAGS.pte, summary, eval_samples.load_samples(FLAGS.eval_dir, summary), FLAGS.host_runner
        )
    except (eval_samples.ScoresError, EvaluationError, OSError, ValueError) as e:
        print(f"program_scores: error: {e}", file=sys.stderr)
        return 2
    with open(FLAGS.out, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(app.run(main))
