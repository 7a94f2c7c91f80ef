"""History of every registered game through the database: random games of Tiến Lên, stud and
Diu played through the services, archived, pruned and replayed from the archive; a game stored
under an older rules version replays with that version's engine; hidden information in stud and
Diu replays (running and finished), over HTTP."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import history, services
from games.engine import registry
from games.engine.registry import GAMES, find_game
from games.engine.stud.rules import UP_POSITIONS
from games.models import Action, Game, Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

Chooser = Callable[[Any, Any, int, random.Random], dict[str, Any]]


def human_table(game: str, seats: int, prefix: str) -> tuple[Table, dict[int, Any], Game]:
    """A started public table of ``game`` with ``seats`` people (seat i: user ``<prefix>i``)."""
    users = [
        UserFactory.create(username=f"{prefix}{i}", display_name=f"{prefix.upper()}{i}")
        for i in range(seats)
    ]
    table = services.table_create(
        owner=users[0], name=f"{game} {prefix}", game=game, options={"seats": seats}
    )
    for i, user in enumerate(users[1:], start=1):
        services.seat_join(table_id=table.pk, user=user, seat=i)
    for user in users:
        services.seat_ready(table_id=table.pk, user=user)
    services.table_start(table_id=table.pk, user=users[0])
    return table, dict(enumerate(users)), Game.objects.get(table=table, number=1)


def random_move(engine: Any, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    return dict(rng.choice(engine.legal_actions(state, seat)))


def play(
    table: Table,
    users: dict[int, Any],
    game: Game,
    choose: Chooser = random_move,
    *,
    rng: random.Random | None = None,
    moves: int | None = None,
) -> Game:
    """Play ``game`` through ``services.game_play`` (each seat's own user) until it ends, or for
    ``moves`` moves."""
    engine = find_game(game.engine)
    rng = rng or random.Random(game.pk)
    done = 0
    game.refresh_from_db()
    while game.status == Game.Status.RUNNING and (moves is None or done < moves):
        state = engine.state_from_json(game.state)
        seat = engine.round_status(state).pending[0]
        action = choose(engine, state, seat, rng)
        services.game_play(table_id=table.pk, user=users[seat], version=game.version, action=action)
        game.refresh_from_db()
        done += 1
    return game


def _client(user: Any | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _replay(client: Client, game: Game, seat: Any = None) -> Any:
    url = reverse("tables:replay_json", args=[game.table.code, game.number])
    return client.get(url if seat is None else f"{url}?seat={seat}")


# --------------------------------------------------------------------------- every game, archived
GAME_SETUPS = [("tienlen", 4, 3), ("stud", 5, 4), ("diu", 4, 2)]  # game, seats, games played


def test_random_games_of_every_engine_replay_from_the_archive_after_pruning() -> None:
    """Random games of each registered game through the real services: each is archived when
    it finishes; after its action rows are pruned the replay from the archive reproduces the
    stored final state, result and scores, and every perspective's replay is unchanged."""
    assert {name for name, _, _ in GAME_SETUPS} == set(GAMES)
    played: list[Game] = []
    for name, seats, count in GAME_SETUPS:
        for n in range(count):
            table, users, game = human_table(name, seats, f"{name[:2]}{n}x")
            played.append(play(table, users, game, rng=random.Random(f"{name}{n}")))
    before: dict[int, dict[Any, Any]] = {}
    for game in played:
        assert game.status == Game.Status.FINISHED
        game.refresh_from_db()
        assert game.archived_at is not None  # archived on commit when it finished
        log: Any = game.game_log
        assert len(log["actions"]) == game.version
        client = _client()
        seats = _replay(client, game).json()["perspectives"]
        before[game.pk] = {seat: _replay(client, game, seat).json() for seat in seats}
    Game.objects.filter(pk__in=[g.pk for g in played]).update(
        ended_at=timezone.now() - timedelta(days=90)
    )
    for game in played:
        history.game_archive(game_id=game.pk)  # the summary's end time moved
    assert history.actions_prune(days=30) == sum(g.version for g in played)
    assert not Action.objects.filter(game__in=played).exists()
    for game in played:
        game.refresh_from_db()
        engine = find_game(game.engine)
        record = history.game_record(game)
        assert record.source == "archive"
        state = engine.replay(record.config, record.seed, record.actions)
        assert engine.state_to_json(state) == game.state  # the stored final state
        assert engine.result(state) == game.result
        assert game.result is not None
        assert game.result["scores"] == game.scores
        assert sum(game.scores) == 0
        client = _client()
        for seat, data in before[game.pk].items():
            after = _replay(client, game, seat).json()
            assert after["steps"][-1]["view"] == json.loads(json.dumps(engine.view(state, seat)))
            for meta in (after["game"], data["game"]):
                meta.pop("ended_at")
            assert after == data, (game.engine, seat)
        assert history.game_archive(game_id=game.pk) is False  # idempotent


# --------------------------------------------------------------------------- older rules
class OlderTienLen:
    """A stand-in for an earlier Tiến Lên rules version: the same play, but every score
    doubled and a marker in each view, so a replay shows which engine it used."""

    rules_version = "tienlen-0"

    def __init__(self) -> None:
        self._current = find_game("tienlen")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._current, name)

    def result(self, state: Any) -> dict[str, Any] | None:
        res = self._current.result(state)
        if res is None:
            return None
        return {**res, "scores": [2 * s for s in res["scores"]]}

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        view = self._current.view(state, seat)
        return {**view, "result": self.result(state), "legacy": self.rules_version}


def test_a_game_of_an_older_rules_version_replays_with_that_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, users, game = human_table("tienlen", 4, "old")
    game = play(table, users, game)
    older = OlderTienLen()
    engine = find_game("tienlen")
    state = engine.state_from_json(game.state)
    old_result = older.result(state)
    assert old_result is not None
    current: Any = game.result
    assert old_result["scores"] != current["scores"]  # observably different
    Game.objects.filter(pk=game.pk).update(
        rules_version=older.rules_version,
        result=old_result,
        scores=old_result["scores"],
        archived_at=None,
        game_log=None,
    )
    game.refresh_from_db()
    client = _client()
    # without the older engine registered the game cannot be replayed, and says so
    assert _replay(client, game).json()["error"] == "unknown_rules_version"
    assert history.game_archive(game_id=game.pk) is False
    monkeypatch.setitem(registry.RULES_VERSIONS, ("tienlen", older.rules_version), older)
    data = _replay(client, game).json()
    assert data["game"]["rules_version"] == "tienlen-0"
    assert all(step["view"]["legacy"] == "tienlen-0" for step in data["steps"])
    assert data["steps"][-1]["view"]["result"]["scores"] == old_result["scores"]
    page = client.get(reverse("tables:replay", args=[table.code, 1]))
    assert page.status_code == 200
    assert "tienlen-0" in page.content.decode()
    detail = client.get(reverse("tables:game", args=[table.code, 1])).content.decode()
    assert 'id="rules-version">tienlen-0<' in detail
    # the archive replays with it too (the current engine's result would not match)
    assert history.game_archive(game_id=game.pk) is True
    game.refresh_from_db()
    archive: Any = game.game_log
    assert archive["rules_version"] == "tienlen-0"
    assert archive["result"]["scores"] == old_result["scores"]
    # an export of it imports with the older engine
    export = client.get(reverse("tables:export", args=[table.code, 1])).content
    shown = history.game_import(data=export)
    assert shown["game"]["rules_version"] == "tienlen-0"
    assert shown["game"]["result"]["scores"] == old_result["scores"]
    assert shown["steps"][0]["view"]["legacy"] == "tienlen-0"


# --------------------------------------------------------------------------- stud: hidden cards
def _stud_down_cards(state: Any) -> dict[int, set[str]]:
    engine = find_game("stud")
    out = {}
    for seat in range(state.players):
        hand = engine.view(state, seat)["hand"] or []
        out[seat] = {c for i, c in enumerate(hand) if i not in UP_POSITIONS}
    return out


def _passive(fold: set[int]) -> Chooser:
    """Stud: seats in ``fold`` fold at their first chance; the rest check or call to the end."""

    def choose(engine: Any, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        kinds = [a["type"] for a in engine.legal_actions(state, seat)]
        for kind in (("fold",) if seat in fold else ()) + ("check", "call", "bring_in"):
            if kind in kinds:
                return {"type": kind}
        return {"type": kinds[0]}

    return choose


def _cards_named(data: Any, cards: set[str]) -> set[str]:
    dump = json.dumps(data)
    return {c for c in cards if f'"{c}"' in dump}


def test_stud_replays_never_show_down_cards_that_were_not_shown() -> None:
    table, users, game = human_table("stud", 4, "sd")
    engine = find_game("stud")
    game = play(table, users, game, _passive({1, 2}), moves=6)
    assert game.status == Game.Status.RUNNING
    # running: a spectator sees no down card, a seat only its own
    down = _stud_down_cards(engine.state_from_json(game.state))
    everyone = set().union(*down.values())
    anonymous = _client()
    spectator = _replay(anonymous, game).json()
    assert spectator["perspectives"] == [None]
    assert not _cards_named(spectator["steps"], everyone)
    for seat in range(4):
        assert _replay(anonymous, game, seat).status_code == 403
        mine = _replay(_client(users[seat]), game, seat).json()
        others = everyone - down[seat]
        assert not _cards_named(mine["steps"], others)
        assert down[seat] <= _cards_named(mine["steps"], down[seat])
        assert _replay(_client(users[seat]), game, (seat + 1) % 4).status_code == 403
    # finished at a showdown between seats 0 and 3: seats 1 and 2 folded
    game = play(table, users, game, _passive({1, 2}))
    final = engine.state_from_json(game.state)
    assert game.result is not None
    assert game.result["showdown"]
    down = _stud_down_cards(final)
    hidden = down[1] | down[2]
    data = _replay(anonymous, game).json()
    assert data["perspectives"] == [None, 0, 3]  # only the shown hands may be chosen
    assert not _cards_named(data, hidden)
    last = data["steps"][-1]
    assert last["hands"][0] == engine.view(final, 0)["hand"]  # shown in full
    assert last["hands"][3] == engine.view(final, 3)["hand"]
    for folded in (1, 2):
        assert [c is None for c in last["hands"][folded][:2]] == [True, True]
        assert _replay(anonymous, game, folded).json()["error"] == "forbidden_perspective"
    assert all("hands" not in step for step in data["steps"][:-1])
    # the folded player may replay from their own seat and sees their own cards, no one else's
    own = _replay(_client(users[1]), game, 1).json()
    assert down[1] <= _cards_named(own, down[1])
    assert not _cards_named(own, down[2])
    # a shown seat's perspective before the showdown shows only that seat's down cards
    seat0 = _replay(anonymous, game, 0).json()
    for step in seat0["steps"][:-1]:
        assert not _cards_named(step, down[3] | hidden)
    assert not _cards_named(seat0, hidden)
    page = anonymous.get(reverse("tables:replay", args=[table.code, 1])).content.decode()
    assert not {c for c in hidden if f'"{c}"' in page}


def test_an_uncontested_stud_winner_keeps_their_down_cards_hidden() -> None:
    table, users, game = human_table("stud", 3, "su")
    engine = find_game("stud")
    game = play(table, users, game, _passive({0, 1, 2}))
    assert game.result is not None
    assert not game.result["showdown"]
    final = engine.state_from_json(game.state)
    down = set().union(*_stud_down_cards(final).values())
    data = _replay(_client(), game).json()
    assert data["perspectives"] == [None]
    assert not _cards_named(data, down)
    assert all(all(c is None for c in h[:2]) for h in data["steps"][-1]["hands"])


# --------------------------------------------------------------------------- diu: hidden hands
def test_diu_replays_show_only_the_own_hand_until_the_end_then_every_hand() -> None:
    table, users, game = human_table("diu", 4, "dh")
    engine = find_game("diu")
    game = play(table, users, game, moves=12)
    assert game.status == Game.Status.RUNNING
    d_seat = engine.state_from_json(game.state).roles["D"]
    anonymous = _client()
    spectator = _replay(anonymous, game).json()
    states = [engine.new_game(game.config, game.seed)]
    for action in Action.objects.filter(game=game).order_by("seq"):
        states.append(engine.apply(states[-1], action.payload)[0])
    for step, state in zip(spectator["steps"], states, strict=True):
        assert step["view"]["hand"] is None
        assert step["view"]["hands"] is None
        assert "hands" not in step
        assert step["view"] == json.loads(json.dumps(engine.view(state, None)))
    for seat in range(4):
        assert _replay(anonymous, game, seat).status_code == 403
        mine = _replay(_client(users[seat]), game, seat).json()
        for step, state in zip(mine["steps"], states, strict=True):
            assert step["view"]["hand"] == (None if seat == d_seat else list(state.hands[seat]))
            assert step["view"]["hands"] is None
            assert "hands" not in step
    # finished: the end reveals every hand (the rulings' GAME_OVER "reveal hands"); the stock
    # that was never drawn stays hidden (the last view is the engine's own spectator view)
    game = play(table, users, game)
    final = engine.state_from_json(game.state)
    data = _replay(anonymous, game).json()
    assert data["perspectives"] == [None, 0, 1, 2, 3]
    last = data["steps"][-1]
    assert last["hands"] == [list(h) for h in final.hands]
    assert all("hands" not in step for step in data["steps"][:-1])
    assert all(step["view"]["hands"] is None for step in data["steps"][:-1])
    assert last["view"] == json.loads(json.dumps(engine.view(final, None)))
    seat = (d_seat + 1) % 4
    mine = _replay(anonymous, game, seat).json()
    for step in mine["steps"][:-1]:
        assert step["view"]["seat"] == seat
        assert "hands" not in step
    assert mine["steps"][-1]["hands"] == [list(h) for h in final.hands]
