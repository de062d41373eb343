"""A small absl CLI served by the worker, for server_test: it writes to its
stdout and stderr in every way a tool can, and changes process state."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from absl import flags

from ethosu_sdk.worker import server

FLAGS = flags.FLAGS
flags.DEFINE_string("say", "", "what to write, on every channel")
flags.DEFINE_integer("exit", 0, "exit status to return")
flags.DEFINE_bool("raise_error", False, "raise instead of returning")


def main(argv: list[str]) -> int:
    del argv
    # What the previous request changed must not be visible here.
    state = f"cwd={os.getcwd()} env={os.environ.get('ECHO_TOOL_LEFTOVER')} tmp={tempfile.gettempdir()}"
    print(f"print:{FLAGS.say} {state}")
    print(f"stderr:{FLAGS.say}", file=sys.stderr)
    sys.stdout.flush()
    os.write(1, f"fd1:{FLAGS.say}\n".encode())
    subprocess.run(["echo", f"child:{FLAGS.say}"], check=True)  # inherits fd 1
    os.environ["ECHO_TOOL_LEFTOVER"] = FLAGS.say
    os.chdir("/")
    if FLAGS.raise_error:
        raise RuntimeError(f"failed on {FLAGS.say}")
    return FLAGS.exit


if __name__ == "__main__":
    server.run(main)
