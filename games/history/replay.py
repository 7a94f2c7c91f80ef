"""Replays: a game recomputed from its seed and actions, step by step, from one perspective,
and who may see which perspective (see the package docstring)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.deals import deal_result
from games.engine.core.protocol import Event
from games.engine.core.protocol import Game as EngineGame
from games.history.records import (
    JSON,
    HistoryError,
    Record,
    engine_of,
    game_record,
    is_finished,
    owned_bot_seats,
    players_of,
    public_options,
    public_players,
    require_deal_closed,
    seat_count,
    viewer_seats,
)
from games.history.text import step_text
from games.models import Action, Game, Seat

if TYPE_CHECKING:
    from accounts.models import User


# --------------------------------------------------------------------------- replay (pure)
def _visible(events: Iterable[Event], seat: int | None) -> list[JSON]:
    return [e.to_json() for e in events if e.to is None or (seat is not None and e.to == seat)]


def replay_round(engine: EngineGame, state: Any) -> int:
    return int(engine.round_status(state).round_index)


@dataclass
class Replay:
    """A recomputed game: its steps (0 = the deal), its rounds and its final state."""

    steps: list[JSON]
    rounds: list[JSON]
    state: Any
    result: JSON | None


def revealed_hands(
    engine: EngineGame, state: Any, seat: int | None = None
) -> list[list[Any] | None] | None:
    """What the end of a game reveals: each seat's cards as everyone may see them once the game
    is over (None for a card that stays hidden, or for a seat with nothing to show), plus
    ``seat``'s own hand in full; None while the game is on.

    It comes from the engine's ``final_hands(state)`` (a game that hides cards, such as stud,
    shows only the hands of its showdown; the others every hand).

    >>> from games.engine.tienlen import GAME
    >>> revealed_hands(GAME, GAME.new_game({"players": 2}, 5)) is None
    True
    """
    if engine.result(state) is None:
        return None
    hands = engine.final_hands(state)
    if hands is None:
        return None
    out: list[list[Any] | None] = [list(h) for h in hands]
    if seat is not None and 0 <= seat < len(out):
        own = engine.view(state, seat).get("hand")
        if isinstance(own, list):
            out[seat] = list(own)
    return out


def replay_steps(
    engine: EngineGame,
    *,
    config: Mapping[str, Any],
    seed: int | str,
    actions: Sequence[Mapping[str, Any]],
    seat: int | None,
    reveal: bool = True,
    names: Sequence[str] | None = None,
    seats: int | None = None,
) -> Replay:
    """Replay ``actions`` from ``seed`` and return every step as ``seat`` sees it.

    A step is ``{"index", "seat", "auto", "round", "round_after", "events", "text", "view"}``:
    ``view`` is exactly ``engine.view(state, seat)`` after ``index`` actions, ``events`` the
    events of that action this audience saw live (public ones plus the seat's own), ``round``
    the round the action was played in. When the actions end the game and ``reveal`` is true,
    the last step also carries ``"hands"``: :func:`revealed_hands` (what the end of the game
    shows everyone, plus the seat's own hand); no earlier step ever does. ``rounds`` lists seed
    004's rounds: the step of each round's starting view, its turns and the step of its ending
    view (None while it is played). An illegal action raises the engine's error.

    >>> from games.engine.tienlen import GAME
    >>> state = GAME.new_game({"players": 2}, 5)
    >>> r = replay_steps(GAME, config={"players": 2}, seed=5, actions=[], seat=None, reveal=False)
    >>> len(r.steps), r.steps[0]["view"]["hand"], r.rounds[0]["start"]
    (1, None, 0)
    """
    n = seats if seats is not None else seat_count(config, [])
    labels = list(names) if names is not None else [f"Seat {i + 1}" for i in range(n)]
    state = engine.new_game(config, seed)

    first = _visible(engine.initial_events(state), seat)
    index = replay_round(engine, state)
    steps: list[JSON] = [
        {
            "index": 0,
            "seat": None,
            "auto": False,
            "round": index,
            "round_after": index,
            "events": first,
            "text": step_text(first, labels, engine) or "The cards are dealt",
            "view": engine.view(state, seat),
        }
    ]
    for i, action in enumerate(actions, start=1):
        before = index
        state, events = engine.apply(state, action)
        index = replay_round(engine, state)
        shown = _visible(events, seat)
        actor = action.get("seat")
        steps.append(
            {
                "index": i,
                "seat": actor if isinstance(actor, int) else None,
                "auto": bool(action.get("auto", False)),
                "round": before,
                "round_after": index,
                "events": shown,
                "text": step_text(shown, labels, engine),
                "view": engine.view(state, seat),
            }
        )
    result = engine.result(state)
    if reveal and result is not None:
        steps[-1]["hands"] = revealed_hands(engine, state, seat)
    rounds = rounds_of(steps, finished=result is not None)
    return Replay(steps=steps, rounds=rounds, state=state, result=result)


def rounds_of(steps: Sequence[Mapping[str, Any]], *, finished: bool) -> list[JSON]:
    """Seed 004's rounds from a step list: ``{"round", "start", "turns", "end"}`` where
    ``start``/``end`` are the steps of the round's starting and ending views and ``turns`` the
    steps of its actions (``end`` is None while the round is being played).

    >>> steps = [{"index": 0, "round": 0, "round_after": 0},
    ...          {"index": 1, "round": 0, "round_after": 0},
    ...          {"index": 2, "round": 0, "round_after": 1},
    ...          {"index": 3, "round": 1, "round_after": 1}]
    >>> rounds_of(steps, finished=False)
    [{'round': 0, 'start': 0, 'turns': [1, 2], 'end': 2},
     {'round': 1, 'start': 2, 'turns': [3], 'end': None}]
    """
    out: list[JSON] = []
    by_round: dict[int, JSON] = {}

    def opened(number: int, start: int) -> JSON:
        if number not in by_round:
            by_round[number] = {"round": number, "start": start, "turns": [], "end": None}
            out.append(by_round[number])
        return by_round[number]

    if not steps:
        return out
    opened(int(steps[0]["round_after"]), int(steps[0]["index"]))
    for step in steps[1:]:
        index, before, after = int(step["index"]), int(step["round"]), int(step["round_after"])
        current = opened(before, index - 1)
        current["turns"].append(index)
        if after != before:
            current["end"] = index
            opened(after, index)
    last = out[-1]
    if finished and last["end"] is None:
        if last["turns"] or len(out) == 1:
            last["end"] = int(steps[-1]["index"])
        else:
            out.pop()  # the game ended with the previous round: this one never started
    return out


def perspectives(
    game: Game, user: User | None, *, revealed: Sequence[Any] | None = None
) -> list[int | None]:
    """The perspectives ``user`` may replay ``game`` from: None (a spectator) always; while it
    runs only the seats they hold as a person; once it is finished also the seats whose bot
    they own and every seat whose whole hand the end of the game reveals (``revealed``:
    :func:`revealed_hands` of the final state; computed when not given). A stud hand that
    folded, or won uncontested, keeps its down cards: only its player (or its bot's owner)
    may replay from it."""
    own = set(viewer_seats(game, user))
    if not is_finished(game):
        return [None, *sorted(own)]
    players = players_of(game)
    own |= owned_bot_seats(game, players, user)
    if revealed is None:
        engine = engine_of(game.engine, game.rules_version)
        record = game_record(game)
        state = engine.replay(record.config, record.seed, record.actions)
        revealed = revealed_hands(engine, state) or []
    shown = {
        s
        for s, cards in enumerate(revealed)
        if isinstance(cards, list) and all(c is not None for c in cards)
    }
    return [None, *(s for s in range(len(players)) if s in own or s in shown)]


def disqualified_steps(game: Game, record: Record, seats: int) -> list[int | None]:
    """For each seat, the step from which its bot was disqualified (3 strikes; 0: already
    disqualified when the game was dealt), or None.

    Read from the game's own log (the strike record that disqualified it, ``Action.bot_record``
    ``"disqualified": true``, kept in the archive), from a deal snapshot that says so, and from
    the earlier games of the session: a disqualified bot stays disqualified at its seat for the
    rest of the session."""
    out: list[int | None] = [None] * seats
    players = players_of(game)
    for p in players:
        if p.get("disqualified") is True and 0 <= int(p["seat"]) < seats:
            out[int(p["seat"])] = 0
    bot_seats = {
        int(p["seat"]): p.get("bot_version_id")
        for p in players
        if p.get("kind") == Seat.Kind.BOT and p.get("bot_version_id")
    }
    if bot_seats and game.position > 1:
        for seat in _disqualified_earlier(game, bot_seats):
            if 0 <= seat < seats:
                out[seat] = 0
    for seq, rec in sorted(record.bot_records.items()):
        if rec.get("disqualified") is not True or not 0 < seq <= len(record.actions):
            continue
        actor = record.actions[seq - 1].get("seat")
        if isinstance(actor, int) and 0 <= actor < seats and out[actor] is None:
            out[actor] = seq
    return out


def _disqualified_earlier(game: Game, bot_seats: Mapping[int, Any]) -> set[int]:
    """Seats of ``bot_seats`` (seat → bot version id) whose same bot version was disqualified
    in an earlier game of ``game``'s session."""
    found: set[int] = set()
    first = game.number - game.position + 1  # the session's first game (a rematch's, too)
    rows = Action.objects.filter(
        game__table_id=game.table_id,
        game__number__lt=game.number,
        game__number__gte=first,
        bot_record__disqualified=True,
    ).values_list("seat", "bot_record")
    for index, rec in rows:
        version = rec.get("bot_version_id") if isinstance(rec, dict) else None
        if index is not None and index in bot_seats and version in (None, bot_seats[index]):
            found.add(int(index))
    archived = Game.objects.filter(
        table_id=game.table_id,
        number__lt=game.number,
        number__gte=first,
        archived_at__isnull=False,
    ).values_list("players", "game_log")
    for snapshot, log in archived:
        summary = log.get("summary") if isinstance(log, dict) else None
        steps = summary.get("disqualified") if isinstance(summary, dict) else None
        if not isinstance(steps, list) or not isinstance(snapshot, list):
            continue
        for seat, step in enumerate(steps):
            if step is None or seat not in bot_seats or seat >= len(snapshot):
                continue
            then = snapshot[seat]
            if isinstance(then, dict) and then.get("bot_version_id") == bot_seats[seat]:
                found.add(seat)
    return found


def game_players(game: Game) -> list[JSON]:
    """:func:`players_of` with ``"disqualified"``: the step from which a seat's bot was
    disqualified (0: from the deal), or None (the game page marks it)."""
    players = players_of(game)
    if not any(p.get("kind") == Seat.Kind.BOT for p in players):
        return [{**p, "disqualified": None} for p in players]
    steps = disqualified_steps(game, game_record(game), len(players))
    return [{**p, "disqualified": steps[i]} for i, p in enumerate(players)]


def game_meta(game: Game) -> JSON:
    """What the history page shows of a game besides its replay (never the seed while live)."""
    table = game.table
    players = players_of(game)
    total = (table.session or {}).get("games") if isinstance(table.session, dict) else None
    result = game.result if is_finished(game) and isinstance(game.result, dict) else None
    if result is not None:
        result = deal_result(game, result)  # no cards while the deal is played elsewhere
    return {
        "id": game.pk,
        "table": {"code": table.code, "name": table.name, "mode": table.mode},
        "number": game.number,
        "position": game.position,
        "games": int(total or table.options.get("session_length", 16)),
        "engine": game.engine,
        "rules_version": game.rules_version,
        "status": game.status,
        "options": public_options(game.config),
        "players": public_players(players),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        "result": result,
        "archived": game.archived_at is not None,
    }


def all_hands_steps(
    engine: EngineGame,
    *,
    config: Mapping[str, Any],
    seed: int | str,
    actions: Sequence[Mapping[str, Any]],
    shown: Sequence[bool],
) -> list[list[list[Any] | None]]:
    """Every hand at every step (step *k*: after the first *k* actions) of a finished game:
    ``out[k][s]`` seat ``s``'s cards then, for each seat ``shown`` (its whole hand is revealed
    by the end of the game), else None. A finished game whose deal is over everywhere shows this
    ("Watching with hands shown", docs/history.md): a Tiến Lên hand at any step is its hand at
    the end plus the cards it played since, all public by then.

    >>> from games.engine.tienlen import GAME
    >>> out = all_hands_steps(GAME, config={"players": 2}, seed=5, actions=[], shown=[True, False])
    >>> len(out), len(out[0][0]), out[0][1]
    (1, 13, None)
    """
    state = engine.new_game(config, seed)

    def hands_of(state: Any) -> list[list[Any] | None]:
        out: list[list[Any] | None] = []
        for s, ok in enumerate(shown):
            hand = engine.view(state, s).get("hand") if ok else None
            out.append(list(hand) if isinstance(hand, list) else None)
        return out

    steps = [hands_of(state)]
    for action in actions:
        state, _ = engine.apply(state, action)
        steps.append(hands_of(state))
    return steps


def game_replay(
    *, game: Game, user: User | None, seat: int | None, all_hands: bool = False
) -> JSON:
    """The replay of ``game`` from ``seat``'s perspective (None: a spectator) for ``user``.
    ``all_hands`` (a finished game only, else ``hands_need_finished``): every step also
    carries ``all_hands``, every hand the end reveals as it stood then (:func:`all_hands_steps`;
    a stud hand that folded stays None).

    Raises ``forbidden_perspective`` when ``user`` may not see that seat (another seat of a
    running game; a finished seat whose cards stay hidden), ``bad_seat`` for a seat outside the
    table. Bot seats owned by ``user`` carry their per-move record under ``steps[i]["bot"]``;
    nobody else's do. A finished game whose deal is still played elsewhere (an arena set, a
    tournament round: :func:`games.deals.deal_is_open`) raises ``deal_in_play``."""
    players = players_of(game)
    if seat is not None and not 0 <= seat < len(players):
        raise HistoryError("bad_seat", f"no seat {seat}")
    require_deal_closed(game)
    if all_hands and not is_finished(game):
        raise HistoryError("hands_need_finished", "every hand shows only once the game is over")
    engine = engine_of(game.engine, game.rules_version)
    record = game_record(game)
    names = [str(p["name"]) for p in players]
    replay = replay_steps(
        engine,
        config=record.config,
        seed=record.seed,
        actions=record.actions,
        seat=seat,
        reveal=is_finished(game),
        names=names,
        seats=len(players),
    )
    revealed: list[Any] | None = None
    if is_finished(game):
        revealed = revealed_hands(engine, replay.state) or []
    allowed = perspectives(game, user, revealed=revealed)
    if seat not in allowed:
        raise HistoryError(
            "forbidden_perspective",
            "only your own seat while the game is on, and only revealed hands once it is over",
        )
    if all_hands:
        shown = [isinstance(h, list) and all(c is not None for c in h) for h in (revealed or [])]
        shown += [False] * (len(players) - len(shown))
        every = all_hands_steps(
            engine,
            config=record.config,
            seed=record.seed,
            actions=record.actions,
            shown=shown[: len(players)],
        )
        for step, hands in zip(replay.steps, every, strict=False):
            step["all_hands"] = hands
    owned = owned_bot_seats(game, players, user)
    for step in replay.steps[1:]:
        actor = record.actors[step["index"] - 1] if step["index"] - 1 < len(record.actors) else None
        step["actor"] = actor
        bot = record.bot_records.get(step["index"])
        if bot is not None and step["seat"] in owned:
            step["bot"] = {k: v for k, v in bot.items() if k != "bot_version_id"}
    return {
        "game": game_meta(game),
        "perspective": seat,
        "perspectives": allowed,
        "reveal": is_finished(game),
        "names": names,
        "disqualified": disqualified_steps(game, record, len(players)),
        "steps": replay.steps,
        "rounds": replay.rounds,
    }
