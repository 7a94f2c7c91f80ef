"""Game history with the database: hidden information on replays of running games, bot records
for their owner only, archiving (idempotent; prune then replay is identical), export → import,
lists with filters and pagination, statistics, pages."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bots.models import BotVersion
from games import history, services, tasks
from games.engine.registry import find_game
from games.models import Action, Game, Table
from tests.factories import BotVersionFactory, GameFactory, TableFactory, UserFactory
from tests.games.live import pending_seat, seat_users, started_table, state_of

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = find_game("tienlen")
CONSOLE_LINE = "bot thinking: secret plan"


def console_bot(*, seat: Any, game: Any, engine: Any, state: Any) -> dict[str, Any]:
    """A ``GAMES_BOT_PLAYER`` that plays the house AI's move and reports console output."""
    move = dict(engine.house_action(state, seat.index, "easy"))
    move.pop("seat", None)
    return {**move, "bot_record": {"console": [CONSOLE_LINE], "elapsed_ms": 7, "ok": True}}


def play_one(table: Table, game: Game) -> None:
    seat = pending_seat(game)
    action = ENGINE.legal_actions(state_of(game), seat)[0]
    move: dict[str, Any] = {"type": action["type"]}
    if action["type"] == "play":
        move["cards"] = action["cards"]
    services.game_play(
        table_id=table.pk, user=seat_users(table)[seat], version=game.version, action=move
    )


def finished_human_game() -> tuple[Table, list[Any], Game]:
    table, users, game = started_table()
    while game.status == Game.Status.RUNNING:
        play_one(table, game)
        game.refresh_from_db()
    return table, users, game


@pytest.fixture
def bot_game(settings: Any) -> tuple[Any, Game]:
    """A practice table where the owner watches their bot against three house AIs: one game
    played to the end (every move inline)."""
    settings.GAMES_BOT_PLAYER = "tests.games.test_history_db.console_bot"
    owner = UserFactory.create(username="botowner", display_name="Owner")
    version = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
    table = services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    game = Game.objects.get(table=table, number=1)
    assert game.status == Game.Status.FINISHED
    return owner, game


def _client(user: Any | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _replay_url(game: Game, seat: Any = None) -> str:
    url = reverse("tables:replay_json", args=[game.table.code, game.number])
    return url if seat is None else f"{url}?seat={seat}"


# --------------------------------------------------------------------------- hidden cards
def test_running_game_replays_never_leak_another_seats_cards_or_the_seed() -> None:
    table, _users, game = started_table()
    for _ in range(6):
        play_one(table, game)
        game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    state = state_of(game)
    hands = {s: set(ENGINE.view(state, s)["hand"]) for s in range(4)}
    seed = str(game.seed)
    for seat, user in seat_users(table).items():
        client = _client(user)
        response = client.get(_replay_url(game, seat))
        assert response.status_code == 200
        body = response.content.decode()
        assert seed not in body
        data = response.json()
        assert data["reveal"] is False
        assert data["perspectives"] == [None, seat]
        others = set().union(*(h for s, h in hands.items() if s != seat))
        for step in data["steps"]:
            assert "hands" not in step
            assert step["view"]["seat"] == seat
            dump = json.dumps(step)
            assert not {c for c in others if f'"{c}"' in dump}, step["index"]
        # another seat's perspective is refused
        other = (seat + 1) % 4
        refused = client.get(_replay_url(game, other))
        assert refused.status_code == 403
        assert refused.json()["error"] == "forbidden_perspective"
    # a non-player (signed in or not) gets only the spectator view
    for client in (_client(), _client(UserFactory.create(username="watcher"))):
        for seat in range(4):
            assert client.get(_replay_url(game, seat)).status_code == 403
        data = client.get(_replay_url(game)).json()
        assert data["perspectives"] == [None]
        held = set().union(*hands.values())
        for step in data["steps"]:
            assert step["view"]["hand"] is None
            dump = json.dumps(step)
            assert not {c for c in held if f'"{c}"' in dump}
        page = client.get(reverse("tables:replay", args=[table.code, 1]) + "?seat=0")
        assert page.status_code == 200
        assert seed not in page.content.decode()
        export = client.get(reverse("tables:export", args=[table.code, 1]))
        assert "seed" not in export.json()
        assert seed not in export.content.decode()
        assert not {c for c in held if f'"{c}"' in export.content.decode()}


def test_finished_game_replays_from_any_seat_with_every_hand() -> None:
    _table, _users, game = finished_human_game()
    data = _client().get(_replay_url(game, 2)).json()
    assert data["reveal"] is True
    assert data["perspectives"] == [None, 0, 1, 2, 3]
    first = data["steps"][0]
    deal = ENGINE.new_game(game.config, game.seed)
    assert first["hands"] == [ENGINE.view(deal, s)["hand"] for s in range(4)]
    assert data["steps"][-1]["view"]["result"] == game.result
    assert [r["round"] for r in data["rounds"]] == list(range(len(data["rounds"])))
    assert data["game"]["rules_version"] == ENGINE.rules_version


def test_bad_seat_and_unknown_rules_version_give_clear_errors() -> None:
    table, _users, game = finished_human_game()
    assert _client().get(_replay_url(game, 7)).json()["error"] == "bad_seat"
    assert _client().get(_replay_url(game, "x")).json()["error"] == "bad_seat"
    Game.objects.filter(pk=game.pk).update(rules_version="tienlen-0")
    response = _client().get(_replay_url(game))
    assert response.json()["error"] == "unknown_rules_version"
    page = _client().get(reverse("tables:replay", args=[table.code, 1]))
    assert page.status_code == 409
    assert "unknown_rules_version" in page.content.decode()


# --------------------------------------------------------------------------- bot records
def test_only_the_bot_owner_sees_its_console_output_and_time(bot_game: Any) -> None:
    owner, game = bot_game
    bot_seat = next(p["seat"] for p in history.players_of(game) if p["kind"] == "bot")
    owner_data = _client(owner).get(_replay_url(game)).json()
    records = [s for s in owner_data["steps"] if "bot" in s]
    assert records
    assert all(s["seat"] == bot_seat for s in records)
    assert records[0]["bot"]["console"] == [CONSOLE_LINE]
    assert records[0]["bot"]["elapsed_ms"] == 7
    for viewer in (None, UserFactory.create(username="rival")):
        response = _client(viewer).get(_replay_url(game))
        assert CONSOLE_LINE not in response.content.decode()
        assert all("bot" not in s for s in response.json()["steps"])
        page = _client(viewer).get(reverse("tables:replay", args=[game.table.code, 1]))
        assert CONSOLE_LINE not in page.content.decode()
    assert (
        CONSOLE_LINE
        in _client(owner).get(reverse("tables:replay", args=[game.table.code, 1])).content.decode()
    )


# --------------------------------------------------------------------------- archiving
def test_finishing_a_game_archives_it_once(bot_game: Any) -> None:
    assert services.TASK_GAME_ARCHIVE == history.TASK_ARCHIVE
    _owner, game = bot_game
    game.refresh_from_db()
    assert game.archived_at is not None  # enqueued on commit by _finish
    log = game.game_log
    assert log["format"] == history.ARCHIVE_FORMAT
    assert len(log["actions"]) == game.version == Action.objects.filter(game=game).count()
    assert log["result"] == game.result
    assert log["summary"]["scores"] == game.scores
    assert any(CONSOLE_LINE in json.dumps(r) for r in log["bot_records"].values())
    stamp = game.archived_at
    assert tasks.game_archive.apply(args=(game.pk,)).get() is False  # a redelivery: no change
    assert history.game_archive(game_id=game.pk) is False
    game.refresh_from_db()
    assert game.archived_at == stamp
    assert game.game_log == log


def test_prune_then_replay_is_identical(bot_game: Any) -> None:
    owner, game = bot_game
    before = {
        seat: _client(owner).get(_replay_url(game, seat)).json() for seat in (None, 0, 1, 2, 3)
    }
    export_before = history.game_export(game=game)
    # too recent: nothing pruned
    assert history.actions_prune() == 0
    Game.objects.filter(pk=game.pk).update(ended_at=timezone.now() - timedelta(days=400))
    assert history.game_archive(game_id=game.pk) is True  # the summary's end time changed
    deleted = history.actions_prune(days=30)
    assert deleted == game.version
    assert not Action.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert history.game_record(game).source == "archive"
    for seat, data in before.items():
        after = _client(owner).get(_replay_url(game, seat)).json()
        for meta in (after["game"], data["game"]):
            meta.pop("ended_at")  # moved back by this test
        assert after == data, seat
    export_after = history.game_export(game=game)
    assert {**export_after, "ended_at": None} == {**export_before, "ended_at": None}
    # re-archiving from the archive itself (no rows left) changes nothing
    assert history.game_archive(game_id=game.pk) is False


def test_the_daily_prune_task_uses_the_retention_setting(bot_game: Any, settings: Any) -> None:
    _owner, game = bot_game
    beat = settings.CELERY_BEAT_SCHEDULE["games-actions-prune"]
    assert beat["task"] == history.TASK_PRUNE == tasks.actions_prune.name
    Game.objects.filter(pk=game.pk).update(ended_at=timezone.now() - timedelta(days=10))
    settings.GAMES_ACTION_RETENTION_DAYS = 30
    assert tasks.actions_prune.apply().get() == 0
    settings.GAMES_ACTION_RETENTION_DAYS = 7
    assert tasks.actions_prune.apply().get() == game.version
    assert not Action.objects.filter(game=game).exists()


def test_unarchived_games_are_archived_by_the_command_with_prune() -> None:
    _table, _users, game = finished_human_game()
    Game.objects.filter(pk=game.pk).update(
        archived_at=None, game_log=ENGINE.record(ENGINE.state_from_json(game.state))
    )
    running_table, _, running = started_table()
    play_one(running_table, running)
    out, err = StringIO(), StringIO()
    call_command("games_archive", stdout=out, stderr=err)
    assert "Archived 1 game(s)" in out.getvalue()
    assert "1/1" in err.getvalue()  # the progress bar
    game.refresh_from_db()
    running.refresh_from_db()
    assert game.archived_at is not None
    assert running.archived_at is None
    out = StringIO()
    call_command("games_archive", "--prune", "--days", "0", stdout=out, stderr=StringIO())
    assert "Archived 0 game(s)" in out.getvalue()
    assert f"Pruned {game.version} action row(s)" in out.getvalue()
    assert Action.objects.filter(game=running).exists()  # running games keep their rows
    assert not Action.objects.filter(game=game).exists()


# --------------------------------------------------------------------------- export / import
def test_export_import_round_trip_and_tampering() -> None:
    table, _users, game = finished_human_game()
    response = _client().get(reverse("tables:export", args=[table.code, 1]))
    assert response["Content-Disposition"].startswith("attachment")
    data = response.json()
    assert data["seed"] == game.seed
    assert data["rules_version"] == ENGINE.rules_version
    assert data["result"] == game.result
    shown = history.game_import(data=response.content)
    assert shown["signed"] is True
    assert shown["game"]["result"] == game.result
    original = _client().get(_replay_url(game)).json()
    assert [s["view"] for s in shown["steps"]] == [s["view"] for s in original["steps"]]
    # the upload form replays it
    page = _client().post(
        reverse("tables:history_import"),
        {"file": _upload(response.content)},
    )
    assert page.status_code == 200
    assert "replay-data" in page.content.decode()
    # a changed action breaks the signature, even one the rules would still accept
    tampered = json.loads(response.content)
    tampered["actions"][0]["at"] = 1.0
    with pytest.raises(history.HistoryError) as err:
        history.game_import(data=json.dumps(tampered))
    assert err.value.code == "tampered"
    bad = _client().post(reverse("tables:history_import"), {"text": json.dumps(tampered)})
    assert bad.status_code == 400
    assert "tampered" in bad.content.decode()
    # without a signature the engine still catches an impossible log
    del tampered["signature"]
    tampered["actions"].insert(0, dict(tampered["actions"][0]))
    with pytest.raises(history.HistoryError) as err:
        history.game_import(data=json.dumps(tampered))
    assert err.value.code in ("illegal_action", "result_mismatch")


def _upload(content: bytes) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("game.json", content, content_type="application/json")


# --------------------------------------------------------------------------- lists and stats
def _snapshot(seat: int, **extra: Any) -> dict[str, Any]:
    return {
        "seat": seat,
        "name": extra.pop("name", f"S{seat}"),
        "kind": extra.pop("kind", "house"),
        "user_id": None,
        "bot_id": None,
        "bot_version_id": None,
        "bot_version": None,
        "bot_owner_id": None,
        "house_level": None,
        **extra,
    }


def _result(winner: int, scores: list[int], **extra: Any) -> dict[str, Any]:
    return {"winner": winner, "scores": scores, "ranking": [winner], **extra}


def test_lists_filter_and_paginate() -> None:
    lan = UserFactory.create(username="lan", display_name="Lan")
    public = TableFactory.create(visibility=Table.Visibility.PUBLIC)
    private = TableFactory.create(visibility=Table.Visibility.PRIVATE)
    start = timezone.now() - timedelta(days=30)
    for i in range(25):
        players = [
            _snapshot(0, name="Lan", kind="human", user_id=lan.pk),
            _snapshot(1, name="Robo v1", kind="bot", bot_id=4242, bot_owner_id=lan.pk),
        ]
        GameFactory.create(
            table=public,
            number=i + 1,
            players=players,
            started_at=start + timedelta(days=i),
            result=_result(0, [1, -1]),
            winner_seat=0,
        )
    GameFactory.create(
        table=private, number=1, players=[_snapshot(0, name="Lan", kind="human", user_id=lan.pk)]
    )
    GameFactory.create(table=public, number=99, players=[_snapshot(0, name="Zed")])
    assert history.game_list_public().count() == 26
    assert history.game_list_mine(user=lan).count() == 26  # the private one too
    f = history.HistoryFilters
    assert history.game_list_public(filters=f(player="lan")).count() == 25
    assert history.game_list_public(filters=f(player="Ze")).count() == 1
    assert history.game_list_public(filters=f(bot=4242)).count() == 25
    assert history.game_list_public(filters=f(bot=424)).count() == 0
    assert history.game_list_public(filters=f(game="stud")).count() == 0
    day = (start + timedelta(days=3)).date()
    assert history.game_list_public(filters=f(date_from=day, date_to=day)).count() == 1
    assert history.game_list_bot(bot_id=4242, user=None).count() == 25
    client = Client()
    first = client.get(reverse("tables:history")).content.decode()
    second = client.get(reverse("tables:history") + "?page=2").content.decode()
    assert first.count('class="history-row"') == history.PAGE_SIZE
    assert second.count('class="history-row"') == 26 - history.PAGE_SIZE
    filtered = client.get(reverse("tables:history") + "?player=Ze").content.decode()
    assert filtered.count('class="history-row"') == 1
    assert client.get(reverse("tables:history_mine")).status_code == 302  # sign in first
    mine = _client(lan).get(reverse("tables:history_mine") + "?page=2").content.decode()
    assert mine.count('class="history-row"') == 26 - history.PAGE_SIZE


def test_player_and_bot_statistics() -> None:
    lan = UserFactory.create(username="lan2", display_name="Lan")
    table = TableFactory.create(visibility=Table.Visibility.PUBLIC)
    me = _snapshot(0, name="Lan", kind="human", user_id=lan.pk)
    bot = _snapshot(1, name="Robo", kind="bot", bot_id=77)
    cut = {"from": 1, "to": 0, "points": 3, "reason": "chat"}
    results = [
        _result(0, [13, -13], transfers=[cut], cong=[1]),
        _result(1, [-5, 5], transfers=[{**cut, "from": 0, "to": 1}]),
        _result(0, [2, -2], transfers=[]),
    ]
    for i, res in enumerate(results, start=1):
        GameFactory.create(
            table=table,
            number=i,
            players=[me, bot],
            result=res,
            ended_at=timezone.now() + timedelta(minutes=i),
        )
    stats = history.player_stats(user=lan)
    assert (stats.games, stats.wins, stats.points) == (3, 2, 10)
    assert (stats.cong, stats.cuts_made, stats.cuts_suffered) == (0, 1, 1)
    assert [total for _, _, total in stats.timeline] == [13, 8, 10]
    robo = history.bot_stats(bot_id=77, user=None)
    assert (robo.games, robo.wins, robo.points, robo.cong) == (3, 1, -10, 1)
    page = Client().get(reverse("tables:history_player", args=[lan.pk])).content.decode()
    assert 'id="stat-games">3<' in page
    assert "<polyline" in page
    assert Client().get(reverse("tables:history_bot", args=[999999])).status_code == 404


# --------------------------------------------------------------------------- pages
def test_game_page_shows_players_rules_result_transfers_and_session() -> None:
    table, users, game = finished_human_game()
    page = Client().get(reverse("tables:game", args=[table.code, 1])).content.decode()
    assert ENGINE.rules_version in page
    assert "game 1 of 16" in page
    for user in users:
        assert user.public_name in page
    assert game.result is not None
    for t in game.result["transfers"]:
        assert history.REASON_LABELS[t["reason"]] in page
    assert reverse("tables:history_table", args=[table.code]) in page
    assert f"/tables/{table.code}/games/1/" in page  # the share link
    assert "Winner:" in page  # the copyable result text
    session = Client().get(reverse("tables:history_table", args=[table.code])).content.decode()
    assert "1 of 16 games played" in session
    assert Client().get(reverse("tables:game", args=[table.code, 9])).status_code == 404


def test_old_rows_with_plain_names_still_show() -> None:
    game = GameFactory.create(
        players=["An", "Bình"], config={"players": 2}, result=_result(0, [3, -3]), winner_seat=0
    )
    names = [p["name"] for p in history.players_of(game)]
    assert names == ["An", "Bình"]
    page = Client().get(reverse("tables:game", args=[game.table.code, 1]))
    assert page.status_code == 200
    assert "Bình" in page.content.decode()


def test_import_page_and_nav_link() -> None:
    client = Client()
    home = client.get("/").content.decode()
    assert reverse("tables:history") in home
    form = client.get(reverse("tables:history_import"))
    assert form.status_code == 200
    bad = client.post(reverse("tables:history_import"), {"text": "{not json"})
    assert bad.status_code == 400
    assert "bad_export" in bad.content.decode()
