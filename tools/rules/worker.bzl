"""Actions that may run in the SDK's persistent worker (python/ethosu_sdk/worker).

A worker action passes its arguments in a params file named by
`--flagfile=`: Bazel's worker strategy reads it into the WorkRequest, and a
one-shot run (other strategies) reads it with absl's own --flagfile. The
execution requirements let Bazel choose the worker strategy; .bazelrc sizes
the pool per mnemonic.
"""

WORKER_EXECUTION_REQUIREMENTS = {
    "supports-workers": "1",
    "requires-worker-protocol": "json",
}

def worker_arguments(ctx):
    """An Args whose contents always go to a `--flagfile=` params file, one argument a line."""
    args = ctx.actions.args()
    args.use_param_file("--flagfile=%s", use_always = True)
    args.set_param_file_format("multiline")
    return args
