"""The SDK's version: the single source for the wheel, the release tarball and
(checked by //release:version_test) MODULE.bazel."""

SDK_VERSION = "0.1.0"
