"""Issue 30: a chart is also text. The history page's points chart is an SVG image; the list
after it gives each point's label to a screen reader (visually hidden), oldest first."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.games.test_history_db import finished_human_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_points_chart_has_its_points_as_a_list() -> None:
    _table, users, _game = finished_human_game()
    client = Client()
    client.force_login(users[0])
    html = client.get(f"/tables/history/players/{users[0].pk}/").content.decode()
    found = re.search(
        r'<ol class="sr-only" aria-labelledby="points-chart-title">(.*?)</ol>', html, re.S
    )
    assert found, "the chart's text equivalent"
    items = re.findall(r"<li>(.*?)</li>", found.group(1))
    dots = re.findall(r'<circle class="pc-dot"[^>]*><title>(.*?)</title>', html)
    assert items == dots
    assert len(items) >= 1
    assert all(items)
