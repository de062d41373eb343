"""write_launcher: the executable of a run/test rule, a shell script that
calls a py_binary runner from the runfiles with fixed arguments."""

def _shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def write_launcher(ctx, runner, args, files):
    """Writes `<name>.sh` running `runner` with `args`; returns DefaultInfo.

    Args:
      ctx: the rule's context.
      runner: the runner target (a py_binary, in the target configuration).
      args: arguments, paths given as runfiles-relative short paths.
      files: files the arguments name, added to the runfiles.
    """
    executable = runner[DefaultInfo].files_to_run.executable
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = "#!/bin/sh\n# Generated for %s.\nexec %s %s \"$@\"\n" % (
            ctx.label,
            _shell_quote(executable.short_path),
            " ".join([_shell_quote(a) for a in args]),
        ),
    )
    runfiles = ctx.runfiles(files = files).merge(runner[DefaultInfo].default_runfiles)
    return DefaultInfo(executable = script, runfiles = runfiles)
