"""Signed exports of a game and their import (see the package docstring): a seed and actions
when the end of the game shows every hand, a hand history when it keeps cards hidden, public
turns while it runs."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.core import signing

from games.engine.core import jsonsafe
from games.engine.core.protocol import Game as EngineGame
from games.engine.registry import GAMES
from games.exports import EXPORT_FORMAT, EXPORT_VERSION, export_head, seeded_fields
from games.history.records import (
    JSON,
    HistoryError,
    engine_of,
    game_record,
    is_finished,
    jsonish,
    owned_bot_seats,
    player_entry,
    players_of,
    public_options,
    public_players,
    require_deal_closed,
    seat_count,
    viewer_seats,
)
from games.history.replay import (
    Replay,
    game_meta,
    game_replay,
    replay_steps,
    revealed_hands,
    rounds_of,
)
from games.history.text import step_text
from games.models import Game

if TYPE_CHECKING:
    from accounts.models import User


#: Largest export accepted by :func:`game_import` (bytes) and its most actions: every action
#: becomes a step with its full view in the page, so this bounds the import's response too
#: (a real game has at most a few hundred actions).
MAX_IMPORT_BYTES = 1_000_000
MAX_IMPORT_ACTIONS = 1_000


_SIGNING_SALT = "games.history.export"


# --------------------------------------------------------------------------- export / import
#: The fields the signature of a version-1 export covered (the log and its result only).
_SIGNED_V1 = ("game", "rules_version", "config", "seed", "actions", "result")


def _canonical(data: Mapping[str, Any], *, version: int = EXPORT_VERSION) -> str:
    """The signed text of an export: every field but ``signature`` (names, table, game number
    and dates included, so anything the import page shows as signed is covered); a version-1
    export signed only :data:`_SIGNED_V1`."""
    if version == 1:
        body = {k: data.get(k) for k in _SIGNED_V1}
    else:
        body = {k: v for k, v in data.items() if k != "signature"}
    return json.dumps(jsonish(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _signer() -> signing.Signer:
    return signing.Signer(salt=_SIGNING_SALT)


def _hides_cards(name: str, rules_version: str) -> bool:
    """The engine's ``hides_cards`` for a stored game: True when the end of the game leaves
    some cards hidden for good, so its export is a hand history, never its seed. An unknown
    rules version is judged by the game's current engine; an unknown game counts as hiding
    (its seed is never given out blindly).

    >>> _hides_cards("stud", "stud-1"), _hides_cards("tienlen", "tienlen-1"), _hides_cards("x", "")
    (True, False, True)
    """
    try:
        engine = engine_of(name, rules_version)
    except HistoryError:
        current = GAMES.get(name)
        return current is None or current.hides_cards
    return engine.hides_cards


def _public_turns(steps: Sequence[Mapping[str, Any]]) -> list[JSON]:
    """A spectator replay's steps as an export's ``turns``: what everyone saw, step by step."""
    return [
        {
            "step": s["index"],
            "seat": s["seat"],
            "round": s["round"],
            "round_after": s["round_after"],
            "events": s["events"],
            "text": s["text"],
        }
        for s in steps
    ]


def _export_seat(game: Game, players: Sequence[Mapping[str, Any]], user: User | None) -> int | None:
    """The seat whose own cards ``user`` may take home in a hand history: the seat they held as
    a person, else the first seat of a bot they own; None for anyone else."""
    mine = viewer_seats(game, user) or sorted(owned_bot_seats(game, players, user))
    return mine[0] if mine else None


def game_export(*, game: Game, user: User | None = None) -> JSON:
    """The game as a JSON-able export for ``user`` (None: anonymous), signed over every field.

    * A **finished** game whose cards all show at the end (Tiến Lên, Diu): its config, seed and
      actions, which :func:`game_import` replays with the engine.
    * A **finished** game that keeps cards hidden (the engine's ``hides_cards``: stud) is a *hand
      history*: no seed, config or actions (the seed fixes every card, including the down cards
      nobody was shown), only its public ``turns`` (a spectator's steps), the public
      ``options``, ``revealed_hands`` (what the end shows everyone) and the result; plus
      ``your_hand`` (``{"seat", "cards"}``) when ``user`` held a seat, as a person or with their
      bot — that seat's own cards and nobody else's.
    * A **running** (or aborted) game: only its public ``turns``, never the seed or a hand.

    A finished game whose deal is still played elsewhere raises ``deal_in_play``.
    """
    require_deal_closed(game)
    meta = game_meta(game)
    out: JSON = export_head(
        game=game.engine,
        rules_version=game.rules_version,
        table=meta["table"]["name"],
        number=game.position,  # n of N in its session (the table's number after a rematch)
        games=meta["games"],
        status=game.status,
        started_at=meta["started_at"],
        ended_at=meta["ended_at"],
        players=meta["players"],
        result=meta["result"],
    )
    if is_finished(game) and not _hides_cards(game.engine, game.rules_version):
        record = game_record(game)
        out.update(
            seeded_fields({"config": record.config, "seed": record.seed, "actions": record.actions})
        )
    elif is_finished(game):
        out.update(_hand_history(game, user))
    else:
        replay = game_replay(game=game, user=None, seat=None)
        out["turns"] = _public_turns(replay["steps"])
    out["signature"] = _signer().signature(_canonical(out))
    return out


def _hand_history(game: Game, user: User | None) -> JSON:
    """The public part of a finished hidden-card game (see :func:`game_export`)."""
    engine = engine_of(game.engine, game.rules_version)
    record = game_record(game)
    players = players_of(game)
    replay = replay_steps(
        engine,
        config=record.config,
        seed=record.seed,
        actions=record.actions,
        seat=None,
        reveal=True,
        names=[str(p["name"]) for p in players],
        seats=len(players),
    )
    out: JSON = {
        "options": public_options(record.config),
        "turns": _public_turns(replay.steps),
        "revealed_hands": revealed_hands(engine, replay.state),
    }
    seat = _export_seat(game, players, user)
    cards = engine.view(replay.state, seat).get("hand") if seat is not None else None
    if seat is not None and isinstance(cards, list):
        out["your_hand"] = {"seat": seat, "cards": list(cards)}
    return out


def game_import(*, data: bytes | str) -> JSON:
    """Validate an export and return what the replay viewer shows (a spectator's perspective;
    the last step shows what the end of the game reveals). ``signed`` says a signature of this
    server matched; ``names_signed`` that it covered the table, game number and player names too
    (every export since version 2); ``public`` that it is a list of public turns, not a replay.

    An export with a seed is replayed by the engine of its rules version. One without a seed but
    with ``turns`` — a hand history (a finished stud game) or a running game's export — cannot
    be recomputed: :func:`_public_import` shows its turns, revealed hands and result as
    recorded, trusted only as far as its signature goes.

    Errors (:class:`HistoryError`): ``too_large``, ``too_long`` (more than
    :data:`MAX_IMPORT_ACTIONS` actions, or turns after the deal), ``bad_export`` (not JSON or a
    field missing or malformed), ``not_finished`` (neither a seed nor turns),
    ``unknown_game``, ``unknown_rules_version``, ``tampered`` (a signature that does not match),
    ``illegal_action`` (an action the rules refuse, with its number), ``incomplete`` (the actions
    do not end the game), ``result_mismatch`` (the stated result is not the replayed one)."""
    if len(data) > MAX_IMPORT_BYTES:
        raise HistoryError("too_large", f"an export may have at most {MAX_IMPORT_BYTES} bytes")
    try:
        obj = jsonsafe.loads(data)
    except jsonsafe.JSONTooDeepError as exc:
        raise HistoryError(
            "bad_export", f"the file nests deeper than {jsonsafe.MAX_DEPTH} levels"
        ) from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise HistoryError("bad_export", "the file is not JSON") from exc
    if not isinstance(obj, dict) or obj.get("format") != EXPORT_FORMAT:
        raise HistoryError("bad_export", f"not a {EXPORT_FORMAT} export")
    if obj.get("seed") is None:
        if "turns" in obj:
            return _public_import(obj)
        raise HistoryError(
            "not_finished", "neither a seed to replay nor public turns to show: not a game export"
        )
    name, version = obj.get("game"), obj.get("rules_version")
    config, seed, actions = obj.get("config"), obj.get("seed"), obj.get("actions")
    if not isinstance(name, str) or not isinstance(version, str):
        raise HistoryError("bad_export", "game and rules_version must be strings")
    if not isinstance(config, dict) or not isinstance(actions, list):
        raise HistoryError("bad_export", "config must be an object and actions a list")
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise HistoryError("bad_export", "seed must be an integer or a string")
    if not all(isinstance(a, dict) for a in actions):
        raise HistoryError("bad_export", "actions must be objects")
    if len(actions) > MAX_IMPORT_ACTIONS:
        raise HistoryError("too_long", f"an export may have at most {MAX_IMPORT_ACTIONS} actions")
    engine = engine_of(name, version)
    signed, names_signed = _signature_of(obj, allow_v1=True)
    players = _import_players(obj, seat_count(config, []))
    seats = len(players)
    names = [str(p["name"]) for p in players]
    try:
        engine.validate_config(config)
        engine.new_game(config, seed)
    except ValueError as exc:
        raise HistoryError("bad_export", f"config: {exc}") from exc
    replay = _checked_replay(engine, config, seed, actions, names, seats)
    if replay.result is None:
        raise HistoryError("incomplete", "the actions stop before the game ends")
    stated = obj.get("result")
    if stated is not None and jsonish(stated) != jsonish(replay.result):
        raise HistoryError("result_mismatch", "the stated result is not the replayed one")
    return {
        "game": {
            "engine": name,
            "rules_version": version,
            "table": {"name": str(obj.get("table") or "Imported game")},
            "number": obj.get("number") or 1,
            "position": obj.get("number") or 1,
            "games": obj.get("games") or 1,
            "status": Game.Status.FINISHED,
            "players": public_players(players),
            "options": public_options(config),
            "result": replay.result,
        },
        "signed": signed,
        "names_signed": names_signed,
        "public": False,
        "your_hand": None,
        "perspective": None,
        "perspectives": [None],
        "reveal": True,
        "names": names,
        "steps": replay.steps,
        "rounds": replay.rounds,
    }


def _signature_of(obj: Mapping[str, Any], *, allow_v1: bool) -> tuple[bool, bool]:
    """``(signed, names_signed)`` of an export; ``tampered`` when a signature is present and is
    not this server's for the file's content. A version-1 signature (``allow_v1``: only a seeded
    export ever had one) covered the log and the result, not the names."""
    signature = obj.get("signature")
    if signature is None:
        return False, False
    old = allow_v1 and obj.get("version") == 1
    text = _canonical(obj, version=1 if old else EXPORT_VERSION)
    if not isinstance(signature, str) or not _signer_ok(text, signature):
        raise HistoryError("tampered", "the export was changed after it was made")
    return True, not old


def _import_players(obj: Mapping[str, Any], seats: int) -> list[JSON]:
    """An export's players, one per seat (at least ``seats``), unnamed seats filled in."""
    raw = obj.get("players")
    players = [
        player_entry(p, i)
        for i, p in enumerate(raw if isinstance(raw, list) else [])
        if isinstance(p, dict)
    ]
    while len(players) < seats:
        players.append(player_entry({}, len(players)))
    return players


_IMPORT_STATUSES = (Game.Status.FINISHED, Game.Status.RUNNING, Game.Status.ABORTED)


def _public_import(obj: Mapping[str, Any]) -> JSON:
    """Show an export without a seed: a finished stud game's hand history, or a running (or
    aborted) game's export. Its ``turns`` (``step``, ``seat``, ``events``, ``text``, and
    ``round``/``round_after`` when present) become the viewer's steps, without a view: no engine
    can recompute them. A finished one's last step carries ``revealed_hands`` with
    ``your_hand`` put in its seat. Checked: the shape of every field, the caps, the game being
    known (``unknown_game`` / ``unknown_rules_version``) and the signature (``tampered``); not
    checked: that the turns are a legal game — an unsigned file is shown as *not verified*."""
    name, version = obj.get("game"), obj.get("rules_version")
    if not isinstance(name, str) or not isinstance(version, str):
        raise HistoryError("bad_export", "game and rules_version must be strings")
    turns, status = obj.get("turns"), obj.get("status")
    if not isinstance(turns, list) or not turns:
        raise HistoryError("bad_export", "turns must be a non-empty list")
    if len(turns) > MAX_IMPORT_ACTIONS + 1:
        raise HistoryError("too_long", f"an export may have at most {MAX_IMPORT_ACTIONS} turns")
    if status not in _IMPORT_STATUSES:
        raise HistoryError("bad_export", "status must be finished, running or aborted")
    engine = engine_of(name, version)
    signed, names_signed = _signature_of(obj, allow_v1=False)
    options = obj.get("options")
    players = _import_players(obj, seat_count(options, []))
    seats = len(players)
    names = [str(p["name"]) for p in players]
    steps = [_public_step(turn, i, names, engine) for i, turn in enumerate(turns)]
    finished = status == Game.Status.FINISHED
    result = obj.get("result")
    if finished and not isinstance(result, dict):
        raise HistoryError("bad_export", "a finished game's result must be an object")
    your_hand = _your_hand(obj.get("your_hand"), seats)
    hands = _hands(obj.get("revealed_hands"), seats) if finished else None
    if your_hand is not None and finished:
        hands = hands or [None] * seats
        hands[your_hand["seat"]] = list(your_hand["cards"])
    if hands is not None:
        steps[-1]["hands"] = hands
    return {
        "game": {
            "engine": name,
            "rules_version": version,
            "table": {"name": str(obj.get("table") or "Imported game")},
            "number": obj.get("number") or 1,
            "position": obj.get("number") or 1,
            "games": obj.get("games") or 1,
            "status": status,
            "players": public_players(players),
            "options": public_options(options),
            "result": result if finished else None,
        },
        "signed": signed,
        "names_signed": names_signed,
        "public": True,
        "your_hand": your_hand,
        "perspective": None,
        "perspectives": [None],
        "reveal": hands is not None,
        "names": names,
        "steps": steps,
        "rounds": rounds_of(steps, finished=finished),
    }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _public_step(turn: Any, index: int, names: Sequence[str], engine: EngineGame) -> JSON:
    """One export turn as a viewer step (``bad_export`` when malformed or out of order)."""
    if not isinstance(turn, dict) or not _is_int(turn.get("step")) or turn["step"] != index:
        raise HistoryError("bad_export", f"turn {index} is not the step {index} object")
    seat, events = turn.get("seat"), turn.get("events")
    if seat is not None and not (_is_int(seat) and 0 <= seat < len(names)):
        raise HistoryError("bad_export", f"turn {index}: no seat {seat!r}")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise HistoryError("bad_export", f"turn {index}: events must be a list of objects")
    before = turn.get("round", 0)
    after = turn.get("round_after", before)
    if not _is_int(before) or not _is_int(after):
        raise HistoryError("bad_export", f"turn {index}: round must be an integer")
    text = turn.get("text")
    if text is None:
        text = step_text(events, names, engine)
    if not isinstance(text, str):
        raise HistoryError("bad_export", f"turn {index}: text must be a string")
    return {
        "index": index,
        "seat": seat,
        "auto": False,
        "round": before,
        "round_after": after,
        "events": events,
        "text": text or ("The cards are dealt" if index == 0 else ""),
    }


def _card_list(value: Any, *, hidden: bool) -> bool:
    return isinstance(value, list) and all(
        isinstance(c, str) or (hidden and c is None) for c in value
    )


def _hands(value: Any, seats: int) -> list[list[Any] | None] | None:
    """An export's ``revealed_hands``: one list of card ids (None: a card still hidden) or None
    per seat; ``bad_export`` otherwise."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != seats:
        raise HistoryError("bad_export", "revealed_hands must have one entry per seat")
    if not all(h is None or _card_list(h, hidden=True) for h in value):
        raise HistoryError("bad_export", "revealed_hands must hold card ids or null")
    return [list(h) if isinstance(h, list) else None for h in value]


def _your_hand(value: Any, seats: int) -> JSON | None:
    """An export's ``your_hand`` (``{"seat", "cards"}``), checked; ``bad_export`` otherwise."""
    if value is None:
        return None
    seat: Any = value.get("seat") if isinstance(value, dict) else None
    cards: Any = value.get("cards") if isinstance(value, dict) else None
    if not (_is_int(seat) and 0 <= seat < seats) or not _card_list(cards, hidden=False):
        raise HistoryError("bad_export", "your_hand must be {seat, cards: [card ids]}")
    return {"seat": seat, "cards": list(cards)}


def _signer_ok(value: str, signature: str) -> bool:
    signer = _signer()
    try:
        signer.unsign(f"{value}{signer.sep}{signature}")
    except signing.BadSignature:
        return False
    return True


def _checked_replay(
    engine: EngineGame,
    config: Mapping[str, Any],
    seed: int | str,
    actions: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    seats: int,
) -> Replay:
    try:
        return replay_steps(
            engine,
            config=config,
            seed=seed,
            actions=actions,
            seat=None,
            reveal=True,
            names=names,
            seats=seats,
        )
    except ValueError as exc:
        # find which action the engine refused, for the error message
        state = engine.new_game(config, seed)
        for i, action in enumerate(actions, start=1):
            try:
                state, _ = engine.apply(state, action)
            except ValueError as inner:
                code = getattr(inner, "code", "illegal")
                raise HistoryError("illegal_action", f"action {i} is refused ({code})") from inner
        raise HistoryError("bad_export", str(exc)) from exc
