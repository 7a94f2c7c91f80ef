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
from games.history import export as history_export
from games.models import Action, Game, Table
from tests.factories import BotVersionFactory, GameFactory, TableFactory, UserFactory
from tests.games.live import pending_seat, replay_states, seat_users, started_table, state_of

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = find_game("tienlen")
CONSOLE_LINE = "bot thinking: secret plan"


def console_bot(*, seat: Any, game: Any, engine: Any, state: Any) -> dict[str, Any]:
    """A bot player (``games.extensions``) that plays the house AI's move and reports console
    output."""
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
def bot_game(bot_player: Any) -> tuple[Any, Game]:
    """A practice table where the owner watches their bot against three house AIs: one game
    played to the end (every move inline)."""
    bot_player(console_bot)
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


def test_finished_game_replays_a_seat_as_it_saw_it_then_every_hand_at_the_end() -> None:
    """A finished game from seat 2: every step before the last shows seat 2's hand only (what it
    saw live); the last step, the end of the game, shows every hand."""
    _table, _users, game = finished_human_game()
    data = _client().get(_replay_url(game, 2)).json()
    assert data["reveal"] is True
    assert data["perspectives"] == [None, 0, 1, 2, 3]
    states = replay_states(game)
    assert len(states) == len(data["steps"])
    for step, state in zip(data["steps"][:-1], states[:-1], strict=True):
        assert "hands" not in step
        assert step["view"]["hand"] == ENGINE.view(state, 2)["hand"]
        assert step["view"]["hands"] is None
        held = set().union(*(ENGINE.view(state, s)["hand"] for s in (0, 1, 3)))
        dump = json.dumps({k: v for k, v in step.items() if k != "view"})
        dump += json.dumps({k: v for k, v in step["view"].items() if k != "hand"})
        assert not {c for c in held if f'"{c}"' in dump}, step["index"]
    last = data["steps"][-1]
    assert last["hands"] == [ENGINE.view(states[-1], s)["hand"] for s in range(4)]
    assert last["view"]["result"] == game.result
    assert [r["round"] for r in data["rounds"]] == list(range(len(data["rounds"])))
    assert data["game"]["rules_version"] == ENGINE.rules_version
    # the spectator sees no hand before the end either
    spectator = _client().get(_replay_url(game)).json()
    assert all(s["view"]["hand"] is None and "hands" not in s for s in spectator["steps"][:-1])
    assert spectator["steps"][-1]["hands"] == last["hands"]


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
    moved = {"ended_at": None, "signature": None}  # the end time moved, and it is signed
    assert {**export_after, **moved} == {**export_before, **moved}
    assert history.game_import(data=json.dumps(export_after))["names_signed"] is True
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
    table, users, game = finished_human_game()
    response = _client().get(reverse("tables:export", args=[table.code, 1]))
    assert response["Content-Disposition"].startswith("attachment")
    data = response.json()
    assert data["seed"] == game.seed
    assert data["rules_version"] == ENGINE.rules_version
    assert data["result"] == game.result
    assert not {"turns", "your_hand", "revealed_hands"} & set(data)
    # Tiến Lên shows every hand at the end: the same seeded export for a player of the game
    assert _client(users[0]).get(reverse("tables:export", args=[table.code, 1])).json() == data
    shown = history.game_import(data=response.content)
    assert shown["signed"] is True
    assert shown["game"]["result"] == game.result
    original = _client().get(_replay_url(game)).json()
    assert [s["view"] for s in shown["steps"]] == [s["view"] for s in original["steps"]]
    # the upload form replays it
    importer = _client(users[0])
    page = importer.post(
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
    bad = importer.post(reverse("tables:history_import"), {"text": json.dumps(tampered)})
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
    # the game's own numbers (Tiến Lên's seat_stats), each under its label
    assert '<dt>Cóng</dt><dd id="stat-cong">0<' in page
    assert '<dt>Cuts made</dt><dd id="stat-cuts-made">1<' in page
    assert '<dt>Cuts suffered</dt><dd id="stat-cuts-suffered">1<' in page
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
        assert find_game(game.engine).reason_labels[t["reason"]] in page
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
    recent = client.get(reverse("tables:history")).content.decode()
    assert reverse("tables:history_import") not in recent  # signed-in users only
    client = _client(UserFactory.create(username="importer"))
    recent = client.get(reverse("tables:history")).content.decode()
    assert reverse("tables:history_import") in recent
    form = client.get(reverse("tables:history_import"))
    assert form.status_code == 200
    bad = client.post(reverse("tables:history_import"), {"text": "{not json"})
    assert bad.status_code == 400
    assert "bad_export" in bad.content.decode()


# --------------------------------------------------------------------------- disqualified bots
def failing_bot(*, seat: Any, game: Any, engine: Any, state: Any) -> dict[str, Any]:
    """A bot player (``games.extensions``) whose every move fails: a strike each time."""
    raise RuntimeError("bot crashed")


def test_a_disqualified_bot_is_marked_on_the_game_page_and_in_the_replay(
    bot_player: Any,
) -> None:
    bot_player(failing_bot)
    owner = UserFactory.create(username="dqowner", display_name="Owner")
    version = BotVersionFactory.create(bot__owner=owner, status=BotVersion.Status.READY)
    table = services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    game = Game.objects.get(table=table, number=1)
    assert game.status == Game.Status.FINISHED
    seat = next(p["seat"] for p in history.players_of(game) if p["kind"] == "bot")
    struck = list(Action.objects.filter(game=game, seat=seat).exclude(bot_record=None))
    assert len(struck) == 3
    third = struck[-1].seq
    data = _client().get(_replay_url(game)).json()
    assert data["disqualified"] == [third if s == seat else None for s in range(4)]
    page = _client().get(reverse("tables:game", args=[table.code, 1])).content.decode()
    assert f'data-disqualified="{seat}"' in page
    assert f"disqualified at move {third}" in page
    assert page.count("data-disqualified=") == 1
    game.refresh_from_db()
    log: Any = game.game_log
    assert log["summary"]["disqualified"][seat] == third
    # the next game of the session: the bot is still disqualified, from the deal
    assert services.game_next(table_id=table.pk, after_game=1) is True
    second = Game.objects.get(table=table, number=2)
    second_data = _client().get(_replay_url(second)).json()
    assert second_data["disqualified"] == [0 if s == seat else None for s in range(4)]
    second_page = _client().get(reverse("tables:game", args=[table.code, 2])).content.decode()
    assert f'data-disqualified="{seat}"' in second_page
    # … also once the first game's action rows are pruned (read from its archive)
    Action.objects.filter(game=game).delete()
    assert _client().get(_replay_url(second)).json()["disqualified"][seat] == 0


# --------------------------------------------------------------------------- signed exports
def test_editing_a_signed_exports_names_table_or_number_is_detected() -> None:
    table, users, _game = finished_human_game()
    raw = _client().get(reverse("tables:export", args=[table.code, 1])).content
    data = json.loads(raw)
    assert data["version"] == history.EXPORT_VERSION == 2
    assert history.game_import(data=raw)["names_signed"] is True
    edits = [
        lambda d: d["players"][1].__setitem__("name", "Somebody else"),
        lambda d: d.__setitem__("table", "Another table"),
        lambda d: d.__setitem__("number", 7),
        lambda d: d.__setitem__("games", 32),
        lambda d: d.__setitem__("started_at", "2020-01-01T00:00:00+00:00"),
    ]
    for edit in edits:
        changed = json.loads(raw)
        edit(changed)
        with pytest.raises(history.HistoryError) as err:
            history.game_import(data=json.dumps(changed))
        assert err.value.code == "tampered"
    # over HTTP: the renamed player is refused, the original shows as signed with its names
    renamed = json.loads(raw)
    renamed["players"][1]["name"] = "Somebody else"
    client = _client(users[0])
    refused = client.post(reverse("tables:history_import"), {"text": json.dumps(renamed)})
    assert refused.status_code == 400
    assert "tampered" in refused.content.decode()
    shown = client.post(reverse("tables:history_import"), {"text": raw.decode()})
    assert shown.status_code == 200
    assert "signed by this server (log, result, table, players and dates)" in shown.content.decode()
    # without its signature the same edit replays, shown as unverified
    del renamed["signature"]
    page = client.post(reverse("tables:history_import"), {"text": json.dumps(renamed)})
    assert page.status_code == 200
    assert "player names are not verified" in page.content.decode()


def test_a_version_1_export_verifies_its_log_but_not_its_names() -> None:
    _table, _users, game = finished_human_game()
    data = history.game_export(game=game)
    data["version"] = 1
    data["players"][0]["name"] = "Renamed"  # not covered by a version-1 signature
    text = history_export._canonical(data, version=1)
    data["signature"] = history_export._signer().signature(text)
    shown = history.game_import(data=json.dumps(data))
    assert (shown["signed"], shown["names_signed"]) == (True, False)
    data["actions"][0]["at"] = 1.0
    with pytest.raises(history.HistoryError, match="tampered"):
        history.game_import(data=json.dumps(data))


# --------------------------------------------------------------------------- import limits
def test_import_needs_a_sign_in_is_throttled_and_caps_the_actions(settings: Any) -> None:
    table, users, game = finished_human_game()
    raw = _client().get(reverse("tables:export", args=[table.code, 1])).content.decode()
    url = reverse("tables:history_import")
    anonymous = _client()
    for response in (anonymous.get(url), anonymous.post(url, {"text": raw})):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
    settings.GAMES_IMPORT_RATE = "2/minute"
    client = _client(users[1])
    assert client.post(url, {"text": raw}).status_code == 200
    assert client.post(url, {"text": "{}"}).status_code == 400  # refused ones count too
    throttled = client.post(url, {"text": raw})
    assert throttled.status_code == 429
    assert "throttled" in throttled.content.decode()
    assert int(throttled["Retry-After"]) > 0
    assert client.get(url).status_code == 200  # the form itself is not counted
    assert _client(users[2]).post(url, {"text": raw}).status_code == 200  # per user
    # at most MAX_IMPORT_ACTIONS actions: a longer log is refused before any replay
    long = json.loads(raw)
    long.pop("signature")
    long["actions"] = long["actions"] * (history.MAX_IMPORT_ACTIONS // len(long["actions"]) + 1)
    assert len(long["actions"]) > history.MAX_IMPORT_ACTIONS
    with pytest.raises(history.HistoryError) as err:
        history.game_import(data=json.dumps(long))
    assert err.value.code == "too_long"
    # the largest page an import can make stays bounded: its steps × the size of one step
    page = _client(users[3]).post(url, {"text": raw})
    per_step = len(page.content) / (game.version + 1)
    assert per_step * history.MAX_IMPORT_ACTIONS < 8_000_000


# --------------------------------------------------------------------------- pager
def test_the_pager_keeps_a_filter_with_reserved_characters() -> None:
    table = TableFactory.create(visibility=Table.Visibility.PUBLIC)
    name = "A&B+C d"
    for i in range(history.PAGE_SIZE + 3):
        GameFactory.create(table=table, number=i + 1, players=[_snapshot(0, name=name)])
    GameFactory.create(table=table, number=99, players=[_snapshot(0, name="A")])
    client = Client()
    first = client.get(reverse("tables:history"), {"player": name})
    html = first.content.decode()
    assert html.count('class="history-row"') == history.PAGE_SIZE
    assert "player=A%26B%2BC+d&amp;page=2" in html
    second = client.get(reverse("tables:history") + "?player=A%26B%2BC+d&page=2")
    assert second.content.decode().count('class="history-row"') == 3


# --------------------------------------------------------------------------- statistics at scale
def test_statistics_count_every_game_beyond_the_chart_limit() -> None:
    lan = UserFactory.create(username="lanmany", display_name="Lan")
    table = TableFactory.create(visibility=Table.Visibility.PUBLIC)
    private = TableFactory.create(visibility=Table.Visibility.PRIVATE)
    start = timezone.now() - timedelta(days=2000)
    cut = {"from": 1, "to": 0, "points": 3, "reason": "chat"}
    rows = []
    expected = {"games": 0, "wins": 0, "points": 0, "cong": 0, "made": 0, "suffered": 0}
    bot_points = 0
    count = 1_234
    for i in range(count):
        # Lan sits at seat i % 2, the bot at the other seat
        me = i % 2
        players: list[Any] = [None, None]
        players[me] = _snapshot(me, name="Lan", kind="human", user_id=lan.pk)
        players[1 - me] = _snapshot(1 - me, name="Robo", kind="bot", bot_id=4321)
        points = (i % 7) - 3
        scores = [0, 0]
        scores[me], scores[1 - me] = points, -points
        winner = me if points > 0 else 1 - me
        transfers = []
        if i % 5 == 0:
            transfers.append({**cut, "from": 1 - me, "to": me})
        if i % 11 == 0:
            transfers.append({**cut, "from": me, "to": 1 - me})
        cong = [1 - me] if i % 13 == 0 else []
        rows.append(
            Game(
                table=table,
                number=i + 1,
                engine="tienlen",
                seed=i,
                status=Game.Status.FINISHED,
                players=players,
                started_at=start + timedelta(hours=i),
                ended_at=start + timedelta(hours=i, minutes=5),
                result={"winner": winner, "scores": scores, "transfers": transfers, "cong": cong},
            )
        )
        expected["games"] += 1
        expected["wins"] += int(winner == me)
        expected["points"] += points
        expected["made"] += int(i % 5 == 0)
        expected["suffered"] += int(i % 11 == 0)
        bot_points -= points
    Game.objects.bulk_create(rows)
    GameFactory.create(  # a private table's game counts only on Lan's own page
        table=private,
        players=[_snapshot(0, name="Lan", kind="human", user_id=lan.pk)],
        result=_result(0, [50]),
    )
    stats = history.player_stats(user=lan)
    got = (stats.games, stats.wins, stats.points, stats.cuts_made, stats.cuts_suffered)
    assert got == tuple(expected[k] for k in ("games", "wins", "points", "made", "suffered"))
    assert stats.cong == 0
    assert 1 < len(stats.timeline) <= history.CHART_POINTS
    assert stats.timeline[-1][2] == stats.points  # the chart ends at the exact total
    assert stats.timeline[-1][0].number == count
    totals = [t for _, _, t in stats.timeline]
    running = 0
    exact = []
    for i in range(count):
        running += (i % 7) - 3
        exact.append(running)
    assert set(totals) <= set(exact)  # sampled points are true running totals
    own = history.player_stats(user=lan, public_only=False)
    assert (own.games, own.points) == (count + 1, expected["points"] + 50)
    robo = history.bot_stats(bot_id=4321, user=None)
    assert (robo.games, robo.points) == (count, bot_points)
    assert robo.cong == sum(1 for i in range(count) if i % 13 == 0)
    assert robo.wins == count - expected["wins"]
    # the chart: every k-th game (k = ceil(games / CHART_POINTS)) and the last, in game order,
    # each with the bot's score in that game and its exact running total
    k = -(-count // history.CHART_POINTS)
    numbers = [n for n in range(1, count + 1) if n % k == 0 or n == count]
    assert [(g.number, s, t) for g, s, t in robo.timeline] == [
        (n, -((n - 1) % 7 - 3), -exact[n - 1]) for n in numbers
    ]
    page = Client().get(reverse("tables:history_player", args=[lan.pk])).content.decode()
    assert f'id="stat-games">{count}<' in page
