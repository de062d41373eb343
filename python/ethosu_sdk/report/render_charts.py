"""Renders a model's per-layer charts (Vela's CSVs -> PNG files) as a build
action, so that `bazel run` of a model only writes the HTML page: the charts
are cached with the model and matplotlib is never imported at run time."""

from __future__ import annotations

import json
import os
import sys

from absl import app, flags

from ethosu_sdk.report import html_report

FLAGS = flags.FLAGS
flags.DEFINE_string("intermediates", None, "The model's intermediates directory (Vela CSVs).", required=True)
flags.DEFINE_string("out_dir", None, "Where to write the chart PNGs.", required=True)
flags.DEFINE_string(
    "verification", None, "The model's <name>.verification.json: names the costliest layers by PyTorch module."
)


def main(argv: list[str]) -> int:
    del argv
    layers = html_report.read_layers(FLAGS.intermediates)
    origins = None
    if FLAGS.verification:
        with open(FLAGS.verification) as f:
            origins = html_report.layer_origins(json.load(f))
    os.makedirs(FLAGS.out_dir, exist_ok=True)
    for name, (_, png) in html_report.render_charts(layers, origins).items():
        with open(os.path.join(FLAGS.out_dir, name), "wb") as f:
            f.write(png)
    return 0


if __name__ == "__main__":
    sys.exit(app.run(main))
