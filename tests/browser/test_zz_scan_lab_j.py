from __future__ import annotations
import re
from typing import Any
import pytest
from django.test import Client
from games import services
from tests.factories import UserFactory, BotFactory, BotVersionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def test_scan(browser: Any, live_asgi: str) -> None:
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=1) as pool:
        def setup():
            u = UserFactory.create(username="lan", display_name="Lan", is_staff=True, is_superuser=True)
            b = BotFactory.create(owner=u)
            t = services.table_create_practice(owner=u)
            return u, t
        user, table = pool.submit(setup).result()
    client = Client(); client.force_login(user)
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_asgi},
                     {"name": "django_language", "value": "vi", "url": live_asgi}])
    page = ctx.new_page()
    for path in ["/tables/new/", "/bots/arena/", "/tables/history/", "/tables/history/mine/", "/admin/", "/", f"/t/{table.code}/"]:
        page.goto(live_asgi + path)
        page.wait_for_timeout(2500)
        text = page.evaluate("document.body.innerText")
        words = sorted(set(re.findall(r"\b[A-Za-z][a-z]{2,}\b|\b[A-Z]{2,}\b", text)))
        print("\n==", path, words)
        for line in text.splitlines():
            if re.search(r"\b(games|Recent|console|Practice|easy|medium|hard|BOT|Actions|Chat|Seats|Tables|Games|Bots|Bot|Site|Skip|Toggle|auto|versions|rating|ratings|Tokens|ACCOUNTS|AUTH|GAMES|BOTS|TABLES|events|messages|diu|stud|tienlen)\b", line):
                print("   >", line[:160])
        html = page.evaluate("[...document.querySelectorAll('[title],[aria-label],[placeholder]')].map(e => (e.title||'')+'|'+(e.getAttribute('aria-label')||'')+'|'+(e.placeholder||'')).join(' ')")
        print("  attrs:", sorted(set(re.findall(r"\b[A-Za-z][a-z]{2,}\b", html))))
