"""An incoming-edge transition to the host platform, for rules whose outputs
do not depend on the target (the AOT step). Whoever consumes them, from the
top level or from a firmware built for a board, gets the same configuration,
so the expensive action runs once."""

def _to_host_platform_impl(settings, _attr):
    return {"//command_line_option:platforms": str(settings["//command_line_option:host_platform"])}

to_host_platform = transition(
    implementation = _to_host_platform_impl,
    inputs = ["//command_line_option:host_platform"],
    outputs = ["//command_line_option:platforms"],
)
