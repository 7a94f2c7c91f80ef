"""Read a settings module in a fresh interpreter (settings are read once per process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def probe_settings(
    module: str, probe: str, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """Run ``probe`` (Python source) with ``DJANGO_SETTINGS_MODULE=module``: the caller's
    environment without its ``DJANGO_``/``CELERY_`` variables, then ``env`` (a value
    ``<unset>`` leaves that variable out)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    clean.update({"DJANGO_SETTINGS_MODULE": module, **env})
    clean = {k: v for k, v in clean.items() if v != "<unset>"}
    return subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
