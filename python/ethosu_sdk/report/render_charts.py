"""Renders a model's per-layer charts (Vela's CSVs -> PNG files) as a build
action, so that `bazel run` of a model only writes the HTML page: the charts
are cached with the model and matplotlib is never imported at run time."""

from __future__ import annotations

import os
import sys

from absl import app, flags

from ethosu_sdk.report import html_report

FLAGS = flags.FLAGS
flags.DEFINE_string("intermediates", None, "The model's intermediates directory (Vela CSVs).", required=True)
flags.DEFINE_string("out_dir", None, "Where to write the chart PNGs.", required=True)


def main(argv: list[str]) -> int:
    del argv
    layers = html_report.read_layers(FLAGS.intermediates)
    os.makedirs(FLAGS.out_dir, exist_ok=True)
    for name, (_, png) in html_report.render_charts(layers).items():
        with open(os.path.join(FLAGS.out_dir, name), "wb") as f:
            f.write(png)
    return 0


if __name__ == "__main__":
    sys.exit(app.run(main))
