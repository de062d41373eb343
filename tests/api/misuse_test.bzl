"""Analysis tests: misusing the public API fails at analysis time with a
message that names what is allowed."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

def _expect_failure_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.expected_message)
    return analysistest.end(env)

expect_failure_test = analysistest.make(
    _expect_failure_impl,
    expect_failure = True,
    attrs = {"expected_message": attr.string()},
)
