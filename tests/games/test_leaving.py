"""People who leave a table (issue 14, docs/protocol.md "Leaving a table").

The house AI plays an absent person's seat to the end of the current game only; no further
game is dealt to them (the seat opens, or the session ends when no person is left); the game
they walked out of counts once, marked ``abandoned``, later ones in absence do not count; the
host can end a session; a returning player takes the seat back."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import history, selectors, services
from games.engine.registry import find_game
from games.models import Action, ChatMessage, Game, Seat, Table
from games.services import play
from tests.factories import UserFactory
from tests.games.live import four_player_table, replay_states, seat_users, started_table
from tests.scheduler import SCHEDULER, FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("tienlen")
HOUSE = ENGINE.house_action


def _game(table: Table, number: int | None = None) -> Game:
    qs = Game.objects.filter(table=table)
    return qs.get(number=number) if number is not None else qs.order_by("-number")[0]


def session(table: Table) -> dict[str, Any]:
    assert isinstance(table.session, dict)
    return table.session


def play_out(table: Table) -> Game:
    """Play the table's running game to its end: present people play the house AI's choice,
    the house (inline: the tests' bot delay is 0) plays every other seat."""
    for _ in range(500):
        game = _game(table)
        if game.status != Game.Status.RUNNING:
            return game
        state = ENGINE.state_from_json(game.state)
        seat = ENGINE.round_status(state).pending[0]
        row = Seat.objects.select_related("user").get(table=table, index=seat)
        assert row.kind == Seat.Kind.HUMAN, "the house should have played"
        assert not row.auto, "the house should have played"
        move = {k: v for k, v in HOUSE(state, seat, "medium").items() if k != "seat"}
        services.game_play(table_id=table.pk, user=row.user, version=game.version, action=move)
    raise AssertionError("the game did not end")


def next_deal(clock: FrozenClock) -> None:
    """The automatic next deal (GAMES_NEXT_GAME_SECONDS after the game ended) comes due."""
    clock.advance(services.next_game_seconds() + 1)
    SCHEDULER.run_due()


def open_tables_html(client: Client) -> str:
    """The home page's list of open public tables (its "recent games" list is another)."""
    html = client.get("/").content.decode()
    start = html.index('id="public-tables"')
    return html[start : html.index("</section>", start)]


def codes(table: Table) -> list[str | None]:
    return list(
        ChatMessage.objects.filter(table=table).order_by("pk").values_list("code", flat=True)
    )


def test_the_house_ai_plays_a_leaver_to_the_end_of_the_game_then_the_seat_opens(
    clock: FrozenClock,
) -> None:
    table, users, game = started_table(turn_seconds=60)
    leaver = users[2]
    services.seat_leave(table_id=table.pk, user=leaver)
    finished = play_out(table)
    # every move of the absent seat is the house AI's (not the pass-or-lowest timeout policy)
    states = replay_states(finished)
    mine = list(Action.objects.filter(game=game, seat=2).order_by("seq"))
    assert mine
    assert all(a.actor == "timeout" and a.payload["auto"] for a in mine)
    moves = [(states[a.seq - 1], a.payload) for a in mine]
    house = [play.absent_move(ENGINE, s, 2) for s, _ in moves]
    assert [p.get("cards") for _, p in moves] == [h.get("cards") for h in house]
    timeout = [ENGINE.timeout_action(s, 2).get("cards") for s, _ in moves]
    assert timeout != [h.get("cards") for h in house]
    # the game they walked out of counts, marked abandoned
    assert finished.players[2]["absent"] == "abandoned"
    assert "absent" not in finished.players[1]
    assert history.player_stats(user=leaver).games == 1
    # no game 2 for an absent person: the seat opens, the table is back in the lobby
    next_deal(clock)
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    assert table.next_game_at is None
    assert not Game.objects.filter(table=table, number=2).exists()
    seat = Seat.objects.get(table=table, index=2)
    assert (seat.kind, seat.user_id, seat.auto) == (Seat.Kind.EMPTY, None, False)
    assert "seat_opened" in codes(table)
    assert table in selectors.table_list_public()  # listed as waiting for a player, not live
    # options stay those of the session; the returning player may sit again while it is free
    with pytest.raises(services.TableError) as exc:
        services.table_set_option(table_id=table.pk, user=users[0], name="turn_seconds", value=9)
    assert exc.value.code == "bad_state"
    assert services.seat_join(table_id=table.pk, user=leaver, seat=2) == 2
    services.seat_ready(table_id=table.pk, user=leaver)
    services.table_start(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.IN_PROGRESS
    second = _game(table, 2)
    assert second.status == Game.Status.RUNNING
    assert session(table)["results"]
    assert len(session(table)["results"]) == 1


def test_a_second_abandonment_in_a_session_is_marked_absent_and_not_counted(
    clock: FrozenClock,
) -> None:
    table, users, _game1 = started_table(turn_seconds=60)
    leaver = users[3]
    services.seat_leave(table_id=table.pk, user=leaver)
    play_out(table)
    next_deal(clock)
    services.seat_join(table_id=table.pk, user=leaver, seat=3)
    services.seat_ready(table_id=table.pk, user=leaver)
    services.table_start(table_id=table.pk, user=users[0])
    services.seat_leave(table_id=table.pk, user=leaver)
    second = play_out(table)
    assert second.number == 2
    assert second.players[3]["absent"] == "absent"
    stats = history.player_stats(user=leaver)
    assert stats.games == 1  # only the one abandonment of the session
    assert history.player_stats(user=users[1]).games == 2  # the others' games all count
    rows = history.game_rows(history.game_list_player(user=leaver, public_only=True))
    assert [r["abandoned"] for r in rows] == [["P3"], ["P3"]]
    # shown on the player's page (the profile's statistics) and on each game's page
    client = Client()
    page = client.get(reverse("tables:history_player", args=[leaver.pk])).content.decode()
    assert page.count("data-abandoned") == 2
    first = client.get(reverse("tables:game", args=[table.code, 1])).content.decode()
    assert 'data-absent="3"' in first
    assert ">abandoned</span>" in first
    later = client.get(reverse("tables:game", args=[table.code, 2])).content.decode()
    assert ">absent</span>" in later


def test_disconnect_past_the_hold_at_a_practice_table_ends_the_session(
    clock: FrozenClock,
) -> None:
    user = UserFactory.create(username="solo", display_name="Solo")
    table = services.table_create_practice(owner=user)
    services.table_presence(table_id=table.pk, user=user, counted_seat=None, connected=True)
    services.table_presence(table_id=table.pk, user=user, counted_seat=0, connected=False)
    assert _game(table, 1).status == Game.Status.RUNNING
    clock.advance(services.hold_seconds())
    SCHEDULER.run_due()  # the hold is over: the house AI plays the seat to the end
    game = _game(table, 1)
    assert game.status == Game.Status.FINISHED
    assert game.players[0]["absent"] == "abandoned"
    next_deal(clock)
    table.refresh_from_db()
    assert table.status == Table.Status.COMPLETED
    assert session(table)["finished"] is True
    assert session(table)["ended"] == "abandoned"
    assert Game.objects.filter(table=table).count() == 1
    assert "session_ended_abandoned" in codes(table)
    assert SCHEDULER.run_pending() == 0  # nothing left to run


def test_an_abandoned_public_table_leaves_the_home_page(clock: FrozenClock, client: Client) -> None:
    host, guest = (UserFactory.create(username=n, display_name=n) for n in ("Hana", "Gus"))
    table = services.table_create(owner=host, name="Left alone", options={"seats": 2})
    services.seat_join(table_id=table.pk, user=guest, seat=1)
    for u in (host, guest):
        services.seat_ready(table_id=table.pk, user=u)
    services.table_start(table_id=table.pk, user=host)
    assert "Left alone" in open_tables_html(client)
    services.seat_leave(table_id=table.pk, user=guest)
    services.seat_leave(table_id=table.pk, user=host)  # the house plays both: the game ends
    assert _game(table, 1).status == Game.Status.FINISHED
    next_deal(clock)
    table.refresh_from_db()
    assert table.status == Table.Status.COMPLETED
    assert table not in selectors.table_list_public()
    assert "Left alone" not in open_tables_html(client)


def test_when_the_host_leaves_the_next_present_player_hosts(clock: FrozenClock) -> None:
    table, users, _game1 = started_table(turn_seconds=60)
    services.seat_leave(table_id=table.pk, user=users[0])
    play_out(table)
    next_deal(clock)
    table.refresh_from_db()
    assert table.owner_id == users[1].pk
    assert Seat.objects.get(table=table, index=0).kind == Seat.Kind.EMPTY
    assert "host_changed" in codes(table)
    services.seat_add_bot(table_id=table.pk, user=users[1], seat=0, level="easy")
    services.table_start(table_id=table.pk, user=users[1])
    assert _game(table, 2).status == Game.Status.RUNNING


def test_a_player_back_before_the_game_ends_keeps_the_seat(clock: FrozenClock) -> None:
    table, users, _game1 = started_table(turn_seconds=60)
    back = users[1]
    services.table_presence(table_id=table.pk, user=back, counted_seat=None, connected=True)
    services.table_presence(table_id=table.pk, user=back, counted_seat=1, connected=False)
    clock.advance(services.hold_seconds())
    SCHEDULER.run_due()
    assert Seat.objects.get(table=table, index=1).auto is True
    # the player reconnects: control returns at once (the house no longer plays the seat)
    services.table_presence(table_id=table.pk, user=back, counted_seat=None, connected=True)
    assert Seat.objects.get(table=table, index=1).auto is False
    finished = play_out(table)  # raises if the house played seat 1 after the return
    assert "absent" not in finished.players[1]
    next_deal(clock)
    assert _game(table, 2).status == Game.Status.RUNNING
    assert seat_users(table)[1] == back


def test_the_host_ends_the_session(clock: FrozenClock) -> None:
    table, users, game = started_table(turn_seconds=60)
    with pytest.raises(services.TableError) as exc:
        services.table_end(table_id=table.pk, user=users[1])
    assert exc.value.code == "not_host"
    services.table_end(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    game.refresh_from_db()
    assert table.status == Table.Status.COMPLETED
    assert game.status == Game.Status.ABORTED
    assert game.ended_at is not None
    assert session(table)["finished"] is True
    assert session(table)["ended"] == "host"
    assert "session_ended_host" in codes(table)
    clock.advance(3600)
    SCHEDULER.run_due()  # the aborted game's timers change nothing
    assert Action.objects.filter(game=game).count() == 0
    assert Game.objects.filter(table=table).count() == 1
    with pytest.raises(services.TableError) as exc:
        services.table_end(table_id=table.pk, user=users[0])
    assert exc.value.code == "bad_state"


def test_the_host_may_close_a_table_before_it_starts() -> None:
    table, users = four_player_table()
    services.table_end(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.COMPLETED
    assert table not in selectors.table_list_public()


def test_a_hold_that_ends_in_the_lobby_leaves_the_seat_alone(clock: FrozenClock) -> None:
    table, users, _game1 = started_table(turn_seconds=60)
    services.seat_leave(table_id=table.pk, user=users[3])
    play_out(table)
    late = users[2]  # closes the tab between games: still within the hold at the next deal
    services.table_presence(table_id=table.pk, user=late, counted_seat=None, connected=True)
    services.table_presence(table_id=table.pk, user=late, counted_seat=2, connected=False)
    next_deal(clock)
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    seat = Seat.objects.get(table=table, index=2)
    assert (seat.user_id, seat.auto) == (late.pk, False)
    clock.advance(services.hold_seconds())
    SCHEDULER.run_due()
    seat.refresh_from_db()
    assert (seat.kind, seat.user_id, seat.auto) == (Seat.Kind.HUMAN, late.pk, False)
