"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright's sync API.

Playwright's sync API runs an event loop in the test thread, so Django's async-safety guard
must be relaxed for the ORM calls pytest-django's live_server makes around it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


# Module scope: Playwright's sync API keeps an event loop running in this thread while the
# browser is open, which would break async tests that run after it.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM_PATH).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM_PATH}; ./bin/test installs it with apt-get.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
