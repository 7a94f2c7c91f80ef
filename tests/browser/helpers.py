"""The setup the browser tests share: people logged in (by a session cookie or through the login
form), tables seated and started through the services, the table page opened until its board
is drawn, the language chosen, the Create Table form filled.

The service helpers (:func:`people`, :func:`seated_table`, :func:`start_game`, :func:`game_one`)
call the services, which must not run in the thread where Playwright's event loop runs: a test
calls them in another thread (:func:`in_thread`, or ``pool.submit(...).result()`` of its own
``ThreadPoolExecutor`` for several steps), or before it opens a browser page. Every wait is on a
condition: a selector, a URL, or a row in the database.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.test import Client
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from accounts.models import User
from games import services
from games.models import Game, Table
from tests.factories import DEFAULT_PASSWORD, UserFactory

#: The viewports the table tests check: a laptop and a phone.
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
#: Where the tests save their screenshots (to look at by eye).
SHOTS = os.environ.get("TABLE_SCREENSHOTS", "/tmp")

#: What the table page draws once it has the table's snapshot: a seat in the lobby, a card of
#: your Tiến Lên hand.
LOBBY_SEAT = "#seat-list .lseat-ready"
HAND_CARD = "#hand .pcard"


# ----------------------------------------------------------------------------- logging people in


def collect_errors(page: Any, *, console: bool = True) -> list[str]:
    """The list the page's uncaught exceptions go to (and, with ``console``, its console
    errors: a board module that fails to load, static/js/boards/<game>.js, says so there)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if console:
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def session_page(
    browser: Any,
    base: str,
    user: User,
    viewport: dict[str, int] = DESKTOP,
    *,
    language: str | None = None,
    console: bool = True,
    timeout: float = 15_000,
    **context_options: Any,
) -> Any:
    """A page in a new browser context (cookies of its own) where ``user`` is logged in by a
    session cookie made by Django's test client; ``language`` sets the ``django_language``
    cookie before the first page loads. ``page.errors`` collects the page's errors
    (:func:`collect_errors`). The caller closes ``page.context``."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, **context_options)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    page = context.new_page()
    page.set_default_timeout(timeout)
    page.errors = collect_errors(page, console=console)
    if language is not None:
        set_language(page, base, language)
    return page


def log_in(page: Any, base: str, user: User) -> None:
    """Log ``user`` in through the login form (the factories' password); lands on the profile."""
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/accounts/profile/")


def set_language(page: Any, base: str, language: str) -> None:
    """The pages the context loads from now on are in ``language`` (``vi``, ``en``)."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])


# ------------------------------------------------------------------- tables through the services

T = TypeVar("T")


def in_thread(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` run in another thread (the services must not run in the thread
    where Playwright's event loop runs); its result, or its exception."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args, **kwargs).result()


def people(
    seats: int | Iterable[int],
    *,
    username: str = "p{i}",
    display_name: str | Sequence[str] = "P{i}",
) -> list[User]:
    """New users, one per seat number (``range(seats)`` for an int): ``username`` and
    ``display_name`` are templates of the seat number ``{i}`` (or ``display_name`` a list of
    names, by seat number)."""
    numbers = range(seats) if isinstance(seats, int) else seats
    return [
        UserFactory.create(
            username=username.format(i=i),
            display_name=display_name.format(i=i)
            if isinstance(display_name, str)
            else display_name[i],
        )
        for i in numbers
    ]


def seated_table(users: Sequence[User], *, name: str = "Live", **create: Any) -> Table:
    """A table of ``users[0]`` (``create``: ``game``, ``options``… of ``table_create``) with
    ``users[i]`` at seat ``i`` and everybody ready, not started."""
    table = services.table_create(owner=users[0], name=name, **create)
    for i, user in enumerate(users[1:], start=1):
        services.seat_join(table_id=table.pk, user=user, seat=i)
    for user in users:
        services.seat_ready(table_id=table.pk, user=user)
    return table


def game_one(table: Table, *, timeout: float = 20) -> Game:
    """Game 1 of ``table``, once it is dealt (on a live site, by the worker after the
    countdown)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = Game.objects.filter(table=table, number=1).first()
        if game is not None:
            return game
        time.sleep(0.1)  # the poll's interval: the wait is on the row
    table.refresh_from_db()
    raise AssertionError(
        f"game 1 was not dealt within {timeout} s: table status {table.status}, version "
        f"{table.version}, starts_at {table.starts_at}"
    )


def start_game(table: Table, host: User, *, timeout: float = 20) -> Game:
    """The host starts the table; game 1, once dealt (:func:`game_one`)."""
    services.table_start(table_id=table.pk, user=host)
    return game_one(table, timeout=timeout)


def ready_table(count: int, **create: Any) -> tuple[Table, list[User]]:
    """``count`` ready people (:func:`people`: p0, p1 …, the host at seat 0) at a new table
    (``create``: see :func:`seated_table`), not started."""
    users = people(count)
    return seated_table(users, **create), users


def dealt_table(count: int = 4, **create: Any) -> tuple[Table, list[User], Game]:
    """:func:`ready_table`, started by the host: the table, its people and game 1, once dealt."""
    table, users = ready_table(count, **create)
    return table, users, start_game(table, users[0])


# ------------------------------------------------------------------------------ the table page


def open_table(page: Any, base: str, table: Table, drawn: str | None = None) -> None:
    """Open the table's page; with ``drawn``, wait until the first element it selects is there
    (:data:`HAND_CARD` for a dealt Tiến Lên hand, :data:`LOBBY_SEAT` for the lobby)."""
    page.goto(f"{base}/t/{table.code}/")
    if drawn is not None:
        page.locator(drawn).first.wait_for()


def wait_for_board(page: Any) -> None:
    """The lobby gave way to the Tiến Lên board, with your hand dealt."""
    page.locator("#board-view").wait_for(state="visible", timeout=20_000)
    page.locator(HAND_CARD).first.wait_for()


def new_table_form(page: Any, base: str, name: str) -> None:
    """Open the Create Table form and name the table."""
    page.goto(base + "/tables/new/")
    page.get_by_label("Table name").fill(name)


def choose_seats(page: Any, seats: dict[int, str]) -> None:
    """Fill the form's seats: ``{2: "open", 3: "house:easy"}`` (by the seat's label)."""
    for seat, choice in seats.items():
        page.get_by_label(f"Seat {seat}", exact=True).select_option(choice)


def submit_table_form(page: Any) -> None:
    """Create the table; the browser lands on its page."""
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/**")


def create_table_by_form(page: Any, base: str, name: str, seats: dict[int, str]) -> None:
    """A Tiến Lên table made with the Create Table form; the browser lands on its page."""
    new_table_form(page, base, name)
    choose_seats(page, seats)
    submit_table_form(page)


def ready_and_start(page: Any) -> None:
    """The host says they are ready and starts the table once the Start button is enabled."""
    page.locator("#btn-ready").click()
    page.locator("#btn-start:enabled").wait_for()
    page.locator("#btn-start").click()


def act(page: Any) -> None:
    """If it is this page's turn at a Tiến Lên table: ask for the server's suggestion, then
    Play it (or Pass when the suggestion is to pass)."""
    if page.locator("#btn-play").is_enabled():
        page.locator("#btn-play").click()
        return
    if not page.locator("#btn-suggest").is_enabled():
        return
    page.locator("#btn-suggest").click()
    try:  # the suggestion selects its cards (Play enabled) or pulses Pass
        page.locator("#btn-play:enabled, #btn-pass.pulse").first.wait_for(timeout=2_000)
    except PlaywrightTimeout:
        return  # no suggestion (the turn went on meanwhile): the caller's loop looks again
    if page.locator("#btn-play").is_enabled():
        page.locator("#btn-play").click()
    elif page.locator("#btn-pass").is_enabled() and page.locator("#btn-pass.pulse").count():
        page.locator("#btn-pass").click()
