"""Analysis tests: misusing the public API fails at analysis time with a
message that names what is allowed."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//:defs.bzl", "FirmwareInfo")

def _expect_failure_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.expected_message)
    return analysistest.end(env)

expect_failure_test = analysistest.make(
    _expect_failure_impl,
    expect_failure = True,
    attrs = {"expected_message": attr.string()},
)

def _board_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    asserts.equals(env, ctx.attr.expected_board, target[FirmwareInfo].board)
    return analysistest.end(env)

# The board an ethosu_firmware was built for (FirmwareInfo.board).
firmware_board_test = analysistest.make(
    _board_impl,
    attrs = {"expected_board": attr.string()},
)
