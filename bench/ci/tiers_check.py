"""No component loses all its everyday tests (README, "Two commands"), and
no everyday test depends on a target tagged `full`.

`bazel test //...` is the everyday tier: targets tagged `full`
(tools/rules/tiers.bzl) run only with `--config=full`. This check fails
when a package that has tests keeps none in the everyday tier, e.g. when a
generated suite's sample or a `full` tag took its last one. .ci/run runs it
from the workspace root, where it asks `tools/bazel query`:

    python3 bench/ci/tiers_check.py

or, given the two label lists (one per line), checks them without Bazel:

    python3 bench/ci/tiers_check.py --tests=ALL --everyday=EVERYDAY

With --shard=N/K it prints instead the target patterns of .ci/run's test
command (for --config=full --target_pattern_file): the everyday tier plus
shard N of K of the full tier's tests, a test's shard fixed by a hash of
its label, so each full-tier test runs once every K CI runs.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import zlib
from typing import Iterable, Sequence

# Every test target (manual ones are not in tests(//...)), and the
# everyday tier's: the same minus the full tag, as .bazelrc filters it.
ALL_TESTS = "tests(//...)"
FULL_TARGETS_EXPR = 'attr(tags, "\\bfull\\b", //...)'
EVERYDAY_TESTS = f"tests(//...) except {FULL_TARGETS_EXPR}"
# Full-tier targets an everyday test depends on: built anyway, so their tag
# only hides them from the count (keep them everyday instead).
FULL_UNDER_EVERYDAY = f"{FULL_TARGETS_EXPR} intersect deps({EVERYDAY_TESTS})"
# Every target of the full tier, tests and their inputs.
FULL_TARGETS = FULL_TARGETS_EXPR
FULL_TESTS = f"tests({FULL_TARGETS_EXPR})"


def package(label: str) -> str:
    """`//pkg/sub:name` -> `//pkg/sub`."""
    return label.split(":", 1)[0]


def packages_without_everyday(tests: Iterable[str], everyday: Iterable[str]) -> list[str]:
    """The packages that have tests but none in the everyday tier, sorted."""
    with_tests = {package(label) for label in tests}
    with_everyday = {package(label) for label in everyday}
    return sorted(with_tests - with_everyday)


def shard(labels: Iterable[str], index: int, count: int) -> list[str]:
    """The labels of shard `index` (0-based) of `count`: by a hash of each
    label, so adding a test does not move the others."""
    return sorted(label for label in labels if zlib.crc32(label.encode()) % count == index)


def shard_patterns(full_targets: Iterable[str], full_tests: Iterable[str], index: int, count: int) -> list[str]:
    """Target patterns: the everyday tier (every target but the full tier's)
    and then shard `index` of the full tier's tests, whose inputs Bazel builds
    as their dependencies."""
    return ["//..."] + ["-" + label for label in sorted(full_targets)] + shard(full_tests, index, count)


def _query(expression: str, keep_going: bool = False) -> list[str]:
    """`tools/bazel query`'s labels. keep_going: for deps(), which reaches
    external targets that do not load in query (exit 3, a partial result
    that still holds every target of this repository)."""
    command = ["tools/bazel", "query", "--output=label"] + (["--keep_going"] if keep_going else []) + [expression]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if done.returncode not in ((0, 3) if keep_going else (0,)):
        raise SystemExit(f"tiers: {' '.join(command)} failed ({done.returncode})")
    return [line for line in done.stdout.splitlines() if line.startswith("//")]


def _labels(path: str) -> list[str]:
    return [line.strip() for line in pathlib.Path(path).read_text().splitlines() if line.strip()]


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", help="every test label, one a line (default: tools/bazel query)")
    parser.add_argument("--everyday", help="the everyday tier's test labels, one a line")
    parser.add_argument(
        "--shard", help="N/K: print the target patterns of the everyday tier plus full-tier shard N of K"
    )
    args = parser.parse_args(argv)
    if args.shard:
        index, count = (int(part) for part in args.shard.split("/"))
        if not 0 <= index < count:
            parser.error(f"--shard={args.shard}: N must be in [0, K)")
        print("\n".join(shard_patterns(_query(FULL_TARGETS), _query(FULL_TESTS), index, count)))
        return 0
    tests = _labels(args.tests) if args.tests else _query(ALL_TESTS)
    everyday = _labels(args.everyday) if args.everyday else _query(EVERYDAY_TESTS)
    missing = packages_without_everyday(tests, everyday)
    for pkg in missing:
        print(f"tiers: {pkg} has tests but none in the everyday tier (all tagged full)", file=sys.stderr)
    print(f"tiers: {len(everyday)} of {len(tests)} tests everyday, {len(missing)} package(s) without one")
    hidden = [] if args.tests else _query(FULL_UNDER_EVERYDAY, keep_going=True)
    for label in hidden:
        print(f"tiers: {label} is tagged full but an everyday test depends on it", file=sys.stderr)
    return 1 if missing or hidden else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
