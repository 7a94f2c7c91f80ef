"""``./bin/run`` on a machine where nothing listens on 5432 or 6379: an empty network namespace
(``unshare -n``, with only loopback up) stands in for a fresh machine with no PostgreSQL and no
Redis. The site must come up healthy on its embedded servers and a real worker, and stop."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _can_isolate() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("ip"):
        return False
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_isolate(), reason="needs root, unshare and ip (util-linux, iproute2)")
def test_bin_run_needs_no_postgresql_or_redis_on_the_machine() -> None:
    folder = Path(tempfile.mkdtemp(prefix="tienlen-isolated-"))
    try:
        done = subprocess.run(
            [
                "unshare",
                "-n",
                "sh",
                "-c",
                'ip link set lo up && exec "$0" "$@"',
                sys.executable,
                str(ROOT / "tests" / "embedded" / "isolated_probe.py"),
                str(folder / "data"),
                "8765",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=420,
            check=False,
        )
        log = (folder / "isolated-run.log").read_text(errors="replace")[-4000:]
        assert done.returncode == 0, done.stderr[-3000:] + log
        report = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert report["before"] == {"5432": False, "6379": False}  # nothing there to lean on
    health = report["health"]
    assert health["status"] == "ok", health
    assert health["database"]["mode"] == "embedded"
    assert health["channel_layer"]["mode"] == "embedded"
    assert health["celery"]["mode"] == "embedded"
    assert any(name.startswith("default@") for name in health["celery"]["workers"])
    assert report["home"] == 200
    assert report["exit"] == 0
