"""Run a command that dies with its parent: ``python bin/_bound.py SIGNAL -- command args...``.

Sets the Linux parent-death signal (``prctl(PR_SET_PDEATHSIG)``) and then ``exec``s the command,
so the command replaces this process and receives SIGNAL the moment its parent (supervisord, or
the launcher of ``./bin/test``) dies, even of ``kill -9``. A killed run therefore leaves no
orphaned daphne, worker or database server behind to block the next one. Standard library only:
it also runs as the unprivileged user the embedded PostgreSQL runs as. Elsewhere than Linux it
just ``exec``s.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def bind_to_parent(signum: int) -> None:
    """Ask the kernel to send ``signum`` to this process when its parent dies."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    parent = os.getppid()
    if libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) != 0:  # pragma: no cover - never seen
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent died before the call: act as the kernel would have
        os.kill(os.getpid(), signum)


def main(argv: list[str]) -> None:
    if len(argv) < 3 or argv[1] != "--":
        sys.exit("usage: _bound.py SIGNAL -- command [args...]")
    name = argv[0].upper()
    signum = int(getattr(signal, name if name.startswith("SIG") else f"SIG{name}"))
    bind_to_parent(signum)
    os.execvp(argv[2], argv[2:])


if __name__ == "__main__":
    main(sys.argv[1:])
