"""The `toolscope` command of the wheel: the Rust CLI run in this process."""

import signal
import sys

from toolscope_eval import _toolscope


def main() -> None:
    # Python turns Ctrl-C into KeyboardInterrupt, which it can only raise between bytecodes, never
    # while the engine runs: give SIGINT back its default action so Ctrl-C ends the command at
    # once, as it ends the native binary. (SIGPIPE is ignored by Python as by Rust's runtime, so a
    # closed pipe reaches the CLI as an error it ends quietly on, exactly as natively.)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_toolscope.run_cli(sys.argv))
