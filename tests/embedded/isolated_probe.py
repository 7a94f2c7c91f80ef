"""Run inside an empty network namespace (``unshare -n``) by tests/embedded/test_isolated.py:
a machine where nothing listens on 5432 or 6379. Starts ``./bin/run`` with no service URL,
waits for ``/healthz``, stops it with SIGINT and prints one JSON line with what it saw."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def main() -> int:
    data, port = sys.argv[1], sys.argv[2]
    report: dict[str, object] = {"before": {p: listening(p) for p in (5432, 6379)}}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_"))}
    env.update(TIENLEN_DATA_DIR=data, PORT=port, DJANGO_LOG_LEVEL="WARNING")
    log = open(Path(data).parent / "isolated-run.log", "wb")  # noqa: SIM115
    run = subprocess.Popen(
        [str(ROOT / "bin" / "run")], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    health: dict[str, object] = {}
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and run.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                health = json.load(r)
            # healthy once one worker answers; wait until the default worker is up too
            workers = health.get("celery", {}).get("workers", [])  # type: ignore[attr-defined]
            if any(str(name).startswith("default@") for name in workers):
                break
            time.sleep(0.5)
        except (urllib.error.URLError, OSError, ValueError):
            time.sleep(0.5)
    report["health"] = health
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
        report["home"] = r.status
    run.send_signal(signal.SIGINT)
    report["exit"] = run.wait(120)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
