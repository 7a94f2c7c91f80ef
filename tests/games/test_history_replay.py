"""Replays recomputed by the engine (no database): 1,000 random games, rounds, hidden cards,
export → import round trips and tampered logs."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games import history
from games.engine.core.history import round_history
from games.engine.registry import GAMES, find_game, find_game_version
from games.history import export as history_export

ENGINE = find_game("tienlen")


def random_game(seed: int, rng: random.Random) -> tuple[dict[str, Any], Any]:
    """A finished game played by random legal moves; ``(config, final state)``."""
    players = rng.choice([2, 3, 4])
    config: dict[str, Any] = {"players": players, "started_at": 1_700_000_000.0}
    if rng.random() < 0.3:
        config.update(opening=False, leader=rng.randrange(players))
    if rng.random() < 0.3:
        config["play_on_after_winner"] = True
    if rng.random() < 0.2:
        config["hide_hand_counts"] = True
    state = ENGINE.new_game(config, seed)
    at = 1_700_000_000.0
    while ENGINE.result(state) is None:
        seat = ENGINE.round_status(state).pending[0]
        action = dict(rng.choice(ENGINE.legal_actions(state, seat)))
        at += rng.random() * 5
        action["at"] = round(at, 3)
        if rng.random() < 0.05:
            action = dict(ENGINE.timeout_action(state, seat), at=action["at"])
        state, _ = ENGINE.apply(state, action)
    return config, state


def random_playout(engine: Any, seed: int, rng: random.Random) -> tuple[dict[str, Any], Any]:
    """A finished game of any registered ``engine`` played by random legal moves (5 % of them
    timeouts); ``(config, final state)``."""
    if engine.name == "tienlen":
        return random_game(seed, rng)
    config: dict[str, Any] = {"started_at": 1_700_000_000.0}
    if engine.name == "stud":
        config["players"] = rng.randint(engine.min_players, engine.max_players)
    config = engine.validate_config(config)
    state = engine.new_game(config, seed)
    at = 1_700_000_000.0
    while engine.result(state) is None:
        seat = engine.round_status(state).pending[0]
        at += rng.random() * 5
        if rng.random() < 0.05:
            action = dict(engine.timeout_action(state, seat))
        else:
            action = dict(rng.choice(engine.legal_actions(state, seat)))
        action["at"] = round(at, 3)
        state, _ = engine.apply(state, action)
    return config, state


#: Random games replayed per engine: a thousand of Tiến Lên and of stud (short hands), and
#: fewer of Suijiang Diu, whose hands run to a hundred and more actions.
RANDOM_GAMES = {"tienlen": 1000, "stud": 1000, "diu": 150}


@pytest.mark.parametrize("name", sorted(RANDOM_GAMES))
def test_a_thousand_random_games_replay_to_the_same_state_and_scores(name: str) -> None:
    assert set(RANDOM_GAMES) == set(GAMES)
    engine = find_game(name)
    rng = random.Random(f"history-{name}")
    checked_steps = 0
    for n in range(RANDOM_GAMES[name]):
        seed = rng.getrandbits(63)
        _config, final = random_playout(engine, seed, rng)
        record = engine.record(final)
        replayer = find_game_version(record["game"], engine.rules_version)
        # the replay the history pages use: the final step is the final state's view, and the
        # state itself is identical (every hand, log, settled transfer) with the same scores
        replay = history.replay_steps(
            replayer,
            config=record["config"],
            seed=record["seed"],
            actions=json.loads(json.dumps(record["actions"])),  # as stored (JSON)
            seat=None,
            reveal=n % 10 == 0,
        )
        assert engine.state_to_json(replay.state) == engine.state_to_json(final)
        assert replay.result == engine.result(final)
        assert replay.result is not None
        assert sum(replay.result["scores"]) == 0
        assert replay.steps[-1]["view"] == engine.view(final, None)
        assert len(replay.steps) == len(record["actions"]) + 1
        checked_steps += len(replay.steps)
    assert checked_steps > RANDOM_GAMES[name]


@pytest.mark.parametrize("seed", [3, 17, 99, 2024])
def test_rounds_match_the_engine_round_history(seed: int) -> None:
    """Seed 004: a round's starting view, public turns and ending view, as the engine's own
    ``round_history`` computes them, for every perspective."""
    config, final = random_game(seed, random.Random(seed))
    record = ENGINE.record(final)
    n = config["players"]
    for seat in [None, *range(n)]:
        replay = history.replay_steps(
            ENGINE,
            config=config,
            seed=seed,
            actions=record["actions"],
            seat=seat,
            reveal=False,
        )
        for rnd in replay.rounds:
            expected = round_history(ENGINE, record, rnd["round"], seat)
            assert replay.steps[rnd["start"]]["view"] == expected["start"]
            assert rnd["end"] is not None
            assert replay.steps[rnd["end"]]["view"] == expected["end"]
            turns = [e for i in rnd["turns"] for e in replay.steps[i]["events"] if "to" not in e]
            public = [e for e in turns if e["type"] != "hand"]
            assert public == expected["turns"]
        # every step belongs to exactly one round
        covered = sorted(i for r in replay.rounds for i in r["turns"])
        assert covered == list(range(1, len(replay.steps)))


def test_a_seat_never_sees_another_seats_cards_while_the_game_runs() -> None:
    rng = random.Random(5)
    config, final = random_game(77, rng)
    actions = ENGINE.record(final)["actions"]
    running = actions[: len(actions) // 2]
    n = config["players"]
    state = ENGINE.replay(config, 77, running)
    hands = [set(ENGINE.view(state, s)["hand"]) for s in range(n)]
    for seat in [None, *range(n)]:
        replay = history.replay_steps(
            ENGINE, config=config, seed=77, actions=running, seat=seat, reveal=False
        )
        for step in replay.steps:
            assert "hands" not in step
            view = step["view"]
            assert view["hands"] is None
            if seat is None:
                assert view["hand"] is None
            else:
                # this seat's hand only; the rest of the dump never names a card still held
                # by another seat at that step
                others = set().union(*(h for s, h in enumerate(hands) if s != seat))
                dump = json.dumps({k: v for k, v in view.items() if k != "hand"})
                assert not {c for c in others if f'"{c}"' in dump}
            for event in step["events"]:
                assert event["type"] != "hand" or seat is not None


def test_finished_replays_show_every_hand_only_at_the_end() -> None:
    config, final = random_game(12, random.Random(12))
    record = ENGINE.record(final)
    replay = history.replay_steps(
        ENGINE, config=config, seed=12, actions=record["actions"], seat=1, reveal=True
    )
    assert all("hands" not in step for step in replay.steps[:-1])
    assert replay.steps[0]["view"]["hand"] == ENGINE.view(ENGINE.new_game(config, 12), 1)["hand"]
    assert replay.steps[-1]["hands"] == [
        ENGINE.view(final, s)["hand"] for s in range(config["players"])
    ]
    assert history.revealed_hands(ENGINE, final) == ENGINE.view(final, None)["hands"]


def _export(seed: int = 31) -> dict[str, Any]:
    config, final = random_game(seed, random.Random(seed))
    record = ENGINE.record(final)
    out = {
        "format": history.EXPORT_FORMAT,
        "version": history.EXPORT_VERSION,
        "game": "tienlen",
        "rules_version": ENGINE.rules_version,
        "table": "Bàn",
        "players": [{"seat": i, "name": f"P{i}"} for i in range(config["players"])],
        "config": record["config"],
        "seed": record["seed"],
        "actions": record["actions"],
        "result": ENGINE.result(final),
    }
    return json.loads(json.dumps(out))


def test_import_replays_an_unsigned_export() -> None:
    data = _export()
    shown = history.game_import(data=json.dumps(data))
    assert shown["signed"] is False
    assert shown["game"]["result"] == data["result"]
    assert len(shown["steps"]) == len(data["actions"]) + 1
    assert shown["names"][0] == "P0"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda d: d["actions"].__setitem__(0, {**d["actions"][0], "seat": 9}), "illegal_action"),
        (lambda d: d["actions"].pop(), "incomplete"),
        (lambda d: d["result"]["scores"].reverse(), "result_mismatch"),
        (lambda d: d.__setitem__("rules_version", "tienlen-0"), "unknown_rules_version"),
        (lambda d: d.__setitem__("game", "chess"), "unknown_game"),
        (lambda d: d.pop("seed"), "not_finished"),
        (lambda d: d.__setitem__("format", "other"), "bad_export"),
        (lambda d: d.__setitem__("actions", "none"), "bad_export"),
        (lambda d: d["config"].__setitem__("players", 9), "bad_export"),
    ],
)
def test_import_rejects_broken_logs_with_a_code(change: Any, code: str) -> None:
    data = _export()
    broken = copy.deepcopy(data)
    change(broken)
    with pytest.raises(history.HistoryError) as err:
        history.game_import(data=json.dumps(broken))
    assert err.value.code == code


def test_import_rejects_garbage_and_huge_files() -> None:
    with pytest.raises(history.HistoryError, match="bad_export"):
        history.game_import(data=b"\xff not json")
    with pytest.raises(history.HistoryError, match="too_large"):
        history.game_import(data=b" " * (history.MAX_IMPORT_BYTES + 1))


def test_event_texts_name_the_players() -> None:
    config, final = random_game(8, random.Random(8))
    record = ENGINE.record(final)
    names = [f"N{i}" for i in range(config["players"])]
    replay = history.replay_steps(
        ENGINE,
        config=config,
        seed=8,
        actions=record["actions"],
        seat=None,
        reveal=False,
        names=names,
    )
    texts = [s["text"] for s in replay.steps[1:]]
    assert all(texts)
    assert any(" played " in t for t in texts)
    assert "Game over" in texts[-1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_replays_and_imports(name: str) -> None:
    """The history layer is game-agnostic: any engine's random game replays to the same state
    and its export imports."""
    engine = GAMES[name]
    rng = random.Random(name)
    for seed in range(3):
        state = engine.new_game(engine.default_config(), seed)
        moves = 0
        while engine.result(state) is None and moves < 3000:
            seat = engine.round_status(state).pending[0]
            state, _ = engine.apply(state, rng.choice(engine.legal_actions(state, seat)))
            moves += 1
        record = json.loads(json.dumps(engine.record(state)))
        replay = history.replay_steps(
            engine,
            config=record["config"],
            seed=record["seed"],
            actions=record["actions"],
            seat=None,
            reveal=True,
        )
        assert engine.state_to_json(replay.state) == engine.state_to_json(state)
        assert replay.result == engine.result(state)
        assert all(step["text"] for step in replay.steps[1:])
        if replay.result is not None:
            export = {
                "format": history.EXPORT_FORMAT,
                "game": name,
                "rules_version": engine.rules_version,
                "config": record["config"],
                "seed": record["seed"],
                "actions": record["actions"],
                "result": replay.result,
            }
            shown = history.game_import(data=json.dumps(export))
            assert len(shown["steps"]) == len(record["actions"]) + 1


# --------------------------------------------------------------------------- hand histories
def _hand_history() -> dict[str, Any]:
    """An unsigned stud hand history as ``history.game_export`` writes one (no seed)."""
    engine = find_game("stud")
    config, final = random_playout(engine, 11, random.Random(11))
    record = engine.record(final)
    replay = history.replay_steps(
        engine, config=config, seed=11, actions=record["actions"], seat=None, reveal=True
    )
    out = {
        "format": history.EXPORT_FORMAT,
        "version": history.EXPORT_VERSION,
        "game": "stud",
        "rules_version": engine.rules_version,
        "status": "finished",
        "players": [{"seat": s, "name": f"P{s}"} for s in range(config["players"])],
        "result": replay.result,
        "options": history_export.public_options(config),
        "turns": history_export._public_turns(replay.steps),
        "revealed_hands": history.revealed_hands(engine, replay.state),
        "your_hand": {"seat": 1, "cards": engine.view(replay.state, 1)["hand"]},
    }
    return json.loads(json.dumps(out))


def test_an_unsigned_hand_history_is_shown_as_recorded() -> None:
    data = _hand_history()
    shown = history.game_import(data=json.dumps(data))
    assert (shown["signed"], shown["public"], shown["reveal"]) == (False, True, True)
    assert len(shown["steps"]) == len(data["turns"])
    assert shown["steps"][-1]["hands"][1] == data["your_hand"]["cards"]
    assert shown["game"]["result"] == data["result"]
    signature = history_export._signer().signature(history_export._canonical(data))
    signed = {**data, "signature": signature}
    assert history.game_import(data=json.dumps(signed))["signed"] is True


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda d: d.pop("turns"), "not_finished"),  # neither a seed nor turns
        (lambda d: d.__setitem__("turns", []), "bad_export"),
        (lambda d: d.__setitem__("turns", "none"), "bad_export"),
        (lambda d: d["turns"][2].__setitem__("step", 7), "bad_export"),
        (lambda d: d["turns"][2].__setitem__("seat", 9), "bad_export"),
        (lambda d: d["turns"][2].__setitem__("events", [1]), "bad_export"),
        (lambda d: d["turns"][2].__setitem__("text", 5), "bad_export"),
        (lambda d: d["turns"][2].__setitem__("round", "x"), "bad_export"),
        (lambda d: d.__setitem__("status", "paused"), "bad_export"),
        (lambda d: d.__setitem__("result", None), "bad_export"),
        (lambda d: d["revealed_hands"].pop(), "bad_export"),
        (lambda d: d["revealed_hands"].__setitem__(0, [7]), "bad_export"),
        (lambda d: d.__setitem__("your_hand", {"seat": 9, "cards": []}), "bad_export"),
        (lambda d: d["your_hand"].__setitem__("cards", [None]), "bad_export"),
        (lambda d: d.__setitem__("game", "chess"), "unknown_game"),
        (lambda d: d.__setitem__("rules_version", "stud-0"), "unknown_rules_version"),
        (lambda d: d.__setitem__("signature", "forged"), "tampered"),
        (
            lambda d: d.__setitem__(
                "turns",
                [{"step": i, "events": []} for i in range(history.MAX_IMPORT_ACTIONS + 2)],
            ),
            "too_long",
        ),
    ],
)
def test_a_broken_hand_history_is_refused_with_a_code(change: Any, code: str) -> None:
    broken = _hand_history()
    change(broken)
    with pytest.raises(history.HistoryError) as err:
        history.game_import(data=json.dumps(broken))
    assert err.value.code == code
