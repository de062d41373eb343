"""cc_fuzzer: a libFuzzer target with its checked-in seed corpus and a
bounded smoke run in `bazel test //...`.

For `name` it makes:
  name_binary  the cc_binary (links libFuzzer's main; only in a fuzz build:
               `bazel run --config=fuzz //pkg:name_binary -- FLAGS CORPUS`)
  name         the same binary built in the fuzz configuration from any
               command line (toolchains/clang/sanitize.bzl)
  name_test    the smoke test: every seed and regression input, then a
               fixed-seed run of `smoke_seconds` (tools/fuzz/run_fuzzer.sh)
  name_full_test  the same run for `full_seconds`, in the full tier

A long run, from any command line (flags after -- go to libFuzzer, the
last value of a flag wins; the seeds are copied to a fresh corpus):
  tools/bazel run //pkg:name_test -- -max_total_time=3600 -seed=7
"""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load("//toolchains/clang:sanitize.bzl", "sanitized_binary")
load(":tiers.bzl", "tier_tags")

def cc_fuzzer(
        name,
        srcs,
        deps,
        corpus,
        regressions = [],
        smoke_seconds = 10,
        full_seconds = 60,
        fuzzer_flags = [],
        copts = [],
        size = "medium",
        **kwargs):
    """A libFuzzer target (LLVMFuzzerTestOneInput in `srcs`) and its smoke test.

    Args:
      name: the fuzzer's name.
      srcs: sources; one defines LLVMFuzzerTestOneInput.
      deps: cc_library dependencies (by label, instrumented like the fuzzer).
      corpus: seed inputs (checked-in files).
      regressions: inputs of past findings, run first by every fuzz run.
      smoke_seconds: length of the everyday smoke test's fuzzing run.
      full_seconds: length of the full tier's run (`<name>_full_test`,
        tools/rules/tiers.bzl).
      fuzzer_flags: libFuzzer flags of every run (e.g. -max_len=...).
      copts: extra compiler options.
      size: the smoke test's size.
      **kwargs: passed to every target (tags, visibility, ...).
    """
    cc_binary(
        name = name + "_binary",
        srcs = srcs,
        copts = copts,
        deps = deps,
        features = ["fuzzer_main"],
        # Without libFuzzer there is no main(): built only in a fuzz build
        # (--config=fuzz or the transition below), skipped by a plain //... .
        target_compatible_with = select({
            Label("//toolchains/clang:fuzzing"): [],
            "//conditions:default": ["@platforms//:incompatible"],
        }),
        **kwargs
    )
    sanitized_binary(
        name = name,
        binary = name + "_binary",
        sanitizer = "fuzz",
        **kwargs
    )
    tags = kwargs.pop("tags", [])
    for suffix, seconds, full in [
        ("_test", smoke_seconds, False),
        ("_full_test", full_seconds, True),
    ]:
        native.sh_test(
            name = name + suffix,
            size = size,
            srcs = [Label("//tools/fuzz:run_fuzzer.sh")],
            args = ["$(rootpath :%s)" % name] +
                   ["$(rootpaths %s)" % c for c in corpus + regressions] +
                   ["--", "-max_total_time=%d" % seconds] + fuzzer_flags,
            data = [name] + corpus + regressions,
            tags = tier_tags(full, tags),
            **kwargs
        )
