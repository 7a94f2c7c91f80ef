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
from games.history import export as history_export
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


# --------------------------------------------------------------------------- stud: hand history
def _export(client: Client, game: Game) -> Any:
    response = client.get(reverse("tables:export", args=[game.table.code, game.number]))
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]  # it may hold the caller's own cards
    return response


def _named_in(text: str, cards: set[str]) -> set[str]:
    """The card ids of ``cards`` that a JSON text names (as a string: ``"10H"``)."""
    return {c for c in cards if f'"{c}"' in text}


def _import_page(user: Any, text: str) -> Any:
    return _client(user).post(reverse("tables:history_import"), {"text": text})


def test_a_stud_export_is_a_hand_history_that_never_holds_unshown_down_cards() -> None:
    """A finished stud game's export has no seed and no actions (the seed fixes every card):
    its public turns, the revealed hands and the result, and the caller's own seat's cards. A
    folded hand's down cards appear in nobody's export but that player's."""
    table, users, game = human_table("stud", 4, "hh")
    engine = find_game("stud")
    game = play(table, users, game, _passive({1, 2}))  # a showdown of seats 0 and 3
    assert game.result is not None
    assert game.result["showdown"]
    final = engine.state_from_json(game.state)
    down = _stud_down_cards(final)
    spectator = _replay(_client(), game).json()
    watcher = UserFactory.create(username="hhwatch")
    exports = {
        "anonymous": _export(_client(), game),
        "watcher": _export(_client(watcher), game),
        **{f"seat {s}": _export(_client(users[s]), game) for s in range(4)},
    }
    for who, response in exports.items():
        data = response.json()
        assert not {"seed", "actions", "config"} & set(data), who
        assert data["status"] == "finished"
        assert data["result"] == game.result
        assert data["options"]["ante"] == game.config["ante"]
        assert [{k: v for k, v in t.items() if k != "text"} for t in data["turns"]] == [
            {k: s[k] for k in ("seat", "round", "round_after", "events")} | {"step": s["index"]}
            for s in spectator["steps"]
        ]
        # the replay shows stud's own lines, in the reader's language; the export keeps the
        # English texts it was signed with: the generic lines
        assert [t["text"] for t in data["turns"]] == [
            history.step_text(s["events"], spectator["names"])
            or ("The cards are dealt" if s["index"] == 0 else "")
            for s in spectator["steps"]
        ]
        assert data["revealed_hands"] == spectator["steps"][-1]["hands"]
        assert history_export._signer_ok(history_export._canonical(data), data["signature"])
        seat = int(who.removeprefix("seat ")) if who.startswith("seat") else None
        if seat is None:
            assert "your_hand" not in data
        else:
            assert data["your_hand"] == {"seat": seat, "cards": engine.view(final, seat)["hand"]}
        # the scan: no folded seat's down card, except in that player's own export
        for folded in (1, 2):
            named = _named_in(response.content.decode(), down[folded])
            assert named == (down[folded] if seat == folded else set()), (who, folded)
    # a seat held by a bot: its owner takes that seat's cards home, nobody else does
    owner = UserFactory.create(username="hhowner")
    players: Any = game.players
    players[2] = {**players[2], "kind": "bot", "user_id": None, "bot_owner_id": owner.pk}
    Game.objects.filter(pk=game.pk).update(players=players)
    mine = _export(_client(owner), game)
    assert mine.json()["your_hand"] == {"seat": 2, "cards": engine.view(final, 2)["hand"]}
    assert _named_in(mine.content.decode(), down[1]) == set()


def test_an_uncontested_stud_winners_down_cards_stay_out_of_every_export() -> None:
    table, users, game = human_table("stud", 3, "hu")
    engine = find_game("stud")
    game = play(table, users, game, _passive({0, 1, 2}))
    assert game.result is not None
    assert not game.result["showdown"]
    winner = game.result["winner"]
    down = _stud_down_cards(engine.state_from_json(game.state))
    other = (winner + 1) % 3
    for client, seat in ((_client(), None), (_client(users[other]), other)):
        response = _export(client, game)
        data = response.json()
        assert not {"seed", "actions", "config"} & set(data)
        assert all(all(c is None for c in h[:2]) for h in data["revealed_hands"])
        for s in range(3):
            expected = down[s] if s == seat else set()
            assert _named_in(response.content.decode(), down[s]) == expected, (seat, s)
    assert _named_in(_export(_client(users[winner]), game).content.decode(), down[winner])


def test_a_stud_hand_history_imports_as_a_public_replay_and_tampering_is_refused() -> None:
    table, users, game = human_table("stud", 4, "hi")
    game = play(table, users, game, _passive({1, 2}))
    raw = _export(_client(users[0]), game).content.decode()
    data = json.loads(raw)
    shown = history.game_import(data=raw)
    assert (shown["signed"], shown["names_signed"], shown["public"]) == (True, True, True)
    assert shown["game"]["result"] == game.result
    assert shown["game"]["status"] == "finished"
    assert [s["text"] for s in shown["steps"]] == [t["text"] for t in data["turns"]]
    assert [s["events"] for s in shown["steps"]] == [t["events"] for t in data["turns"]]
    assert all("view" not in s and "hands" not in s for s in shown["steps"][:-1])
    hands = list(data["revealed_hands"])
    hands[0] = data["your_hand"]["cards"]
    assert shown["steps"][-1]["hands"] == hands
    assert shown["your_hand"] == data["your_hand"]
    spectator = _replay(_client(), game).json()
    assert shown["rounds"] == spectator["rounds"]
    page = _import_page(users[3], raw)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Imported hand history: signed by this server" in body
    assert "the engine cannot recompute it" in body
    # a changed turn (or card, or result) breaks the signature: refused, as for any export
    for edit in (
        lambda d: d["turns"][3].__setitem__("text", "HH0: fold"),
        lambda d: d["turns"].pop(),
        lambda d: d["your_hand"].__setitem__("seat", 1),
        lambda d: d["revealed_hands"][1].__setitem__(0, "AS"),
        lambda d: d["result"]["scores"].reverse(),
    ):
        changed = json.loads(raw)
        edit(changed)
        with pytest.raises(history.HistoryError) as err:
            history.game_import(data=json.dumps(changed))
        assert err.value.code == "tampered"
    changed = json.loads(raw)
    changed["turns"][3]["text"] = "HH0: fold"
    refused = _import_page(users[3], json.dumps(changed))
    assert refused.status_code == 400
    assert "tampered" in refused.content.decode()
    # without the signature it is shown, marked not verified
    del changed["signature"]
    unsigned = history.game_import(data=json.dumps(changed))
    assert (unsigned["signed"], unsigned["public"]) == (False, True)
    assert unsigned["steps"][3]["text"] == "HH0: fold"
    page = _import_page(users[3], json.dumps(changed))
    assert page.status_code == 200
    assert "Imported game (not verified)" in page.content.decode()


def test_a_running_games_export_imports_as_its_public_turns_so_far() -> None:
    table, users, game = human_table("stud", 4, "hr")
    game = play(table, users, game, _passive({1}), moves=5)
    assert game.status == Game.Status.RUNNING
    raw = _export(_client(users[0]), game).content.decode()
    data = json.loads(raw)
    assert not {"seed", "actions", "your_hand", "revealed_hands"} & set(data)
    assert len(data["turns"]) == 6
    shown = history.game_import(data=raw)
    assert (shown["signed"], shown["public"], shown["reveal"]) == (True, True, False)
    assert shown["game"]["status"] == "running"
    assert shown["game"]["result"] is None
    assert all("hands" not in s for s in shown["steps"])
    body = _import_page(users[1], raw).content.decode()
    assert "Imported game in progress: signed by this server" in body
    assert "still being played when it was exported" in body


def test_a_finished_tienlen_or_diu_export_keeps_its_seed_and_actions() -> None:
    for name, seats in (("tienlen", 4), ("diu", 4)):
        table, users, game = human_table(name, seats, f"{name[:2]}k")
        game = play(table, users, game)
        data = _export(_client(users[0]), game).json()
        assert data["seed"] == game.seed
        assert len(data["actions"]) == game.version
        assert not {"turns", "your_hand", "revealed_hands"} & set(data)
        shown = history.game_import(data=json.dumps(data))
        assert (shown["signed"], shown["public"]) == (True, False)
