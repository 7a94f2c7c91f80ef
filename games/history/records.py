"""A stored game's record and players: where a replay's input comes from (the hot ``Action``
rows, or the archive in ``Game.game_log``), who sat where, and the shared small helpers of the
history package."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.deals import DEAL_IN_PLAY, deal_is_open, public_config
from games.engine.core.protocol import Game as EngineGame
from games.engine.registry import find_game_version
from games.models import Action, Game, Seat

if TYPE_CHECKING:
    from accounts.models import User


JSON = dict[str, Any]


ARCHIVE_FORMAT = 1


class HistoryError(ValueError):
    """A refused history request or import, with a stable ``code`` (docs/history.md)."""

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}" if detail else code)


def engine_of(name: str, rules_version: str) -> EngineGame:
    """The engine of a stored game's rules version; ``unknown_game`` or ``unknown_rules_version``
    as a :class:`HistoryError`."""
    try:
        return find_game_version(name, rules_version)
    except ValueError as exc:
        raise HistoryError(str(getattr(exc, "code", "unknown_game")), str(exc)) from exc


# --------------------------------------------------------------------------- players
def players_of(game: Game) -> list[JSON]:
    """``Game.players`` as one dict per seat (``seat``, ``name``, ``kind``, ``user_id``,
    ``bot_id``, ``bot_version_id``, ``bot_version``, ``bot_owner_id``, ``house_level``).

    Older rows hold plain names; their occupants are read from the table's seats (tables pin
    them for a session)."""
    raw = game.players if isinstance(game.players, list) else []
    if raw and all(isinstance(p, dict) for p in raw):
        return [player_entry(p, i) for i, p in enumerate(raw)]
    seats = {s.index: s for s in Seat.objects.filter(table_id=game.table_id)}
    out = []
    count = max(len(raw), seat_count(game.config, []))
    for i in range(count):
        name = raw[i] if i < len(raw) and isinstance(raw[i], str) else None
        seat = seats.get(i)
        out.append(
            player_entry(
                {
                    "seat": i,
                    "name": name,
                    "kind": seat.kind if seat else None,
                    "user_id": seat.user_id if seat and seat.kind == Seat.Kind.HUMAN else None,
                    "bot_version_id": seat.bot_version_id if seat else None,
                    "house_level": seat.house_level if seat else None,
                },
                i,
            )
        )
    return out


def player_entry(p: Mapping[str, Any], index: int) -> JSON:
    seat = p.get("seat", index)
    seat = seat if isinstance(seat, int) else index
    return {
        "seat": seat,
        "name": p.get("name") or f"Seat {seat + 1}",
        "kind": p.get("kind"),
        "user_id": p.get("user_id"),
        "bot_id": p.get("bot_id"),
        "bot_version_id": p.get("bot_version_id"),
        "bot_version": p.get("bot_version"),
        "bot_owner_id": p.get("bot_owner_id"),
        "house_level": p.get("house_level"),
        # the house played this person's seat when the game ended: "abandoned" (the one game
        # they walked out of at that table, counted) or "absent" (a later one, not counted)
        "absent": p.get("absent"),
    }


def seat_count(config: Any, players: Sequence[Any]) -> int:
    n = config.get("players") if isinstance(config, Mapping) else None
    if isinstance(n, int) and not isinstance(n, bool) and n > 0:
        return n
    return len(players)


def public_players(players: Sequence[Mapping[str, Any]]) -> list[JSON]:
    """Seat, name, kind, bot id/version and house level: what anyone may see of the players."""
    keys = ("seat", "name", "kind", "bot_id", "bot_version", "house_level")
    return [{k: p.get(k) for k in keys} for p in players]


# --------------------------------------------------------------------------- records (DB)
@dataclass
class Record:
    """A game's replay input, from the hot action rows or from the archive."""

    config: JSON
    seed: int | str
    actions: list[JSON]
    actors: list[str | None] = field(default_factory=list)
    bot_records: dict[int, JSON] = field(default_factory=dict)
    source: str = "actions"


def is_archive(log: Any) -> bool:
    return isinstance(log, dict) and log.get("format") == ARCHIVE_FORMAT and "actions" in log


def game_record(game: Game) -> Record:
    """The seed, config and actions of ``game`` with each action's actor and the bot records:
    from the ``Action`` rows while they exist, otherwise from the archive in ``game_log``."""
    rows = list(
        Action.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "payload", "actor", "bot_record")
    )
    log = game.game_log
    if rows or not is_archive(log):
        return Record(
            config=dict(game.config or {}),
            seed=game.seed,
            actions=[dict(p) for _, p, _, _ in rows],
            actors=[a for _, _, a, _ in rows],
            bot_records={seq: dict(r) for seq, _, _, r in rows if isinstance(r, dict)},
            source="actions",
        )
    assert isinstance(log, dict)
    raw_records = log.get("bot_records") or {}
    return Record(
        config=dict(log.get("config") or game.config or {}),
        seed=log.get("seed", game.seed),
        actions=[dict(a) for a in log.get("actions") or []],
        actors=list(log.get("actors") or []),
        bot_records={int(k): dict(v) for k, v in raw_records.items() if isinstance(v, dict)},
        source="archive",
    )


def is_finished(game: Game) -> bool:
    return game.status == Game.Status.FINISHED


def viewer_seats(game: Game, user: User | None) -> list[int]:
    """Seats ``user`` held as a person in ``game`` (from the deal's snapshot)."""
    if user is None or not user.is_authenticated:
        return []
    return [
        int(p["seat"])
        for p in players_of(game)
        if p.get("kind") == Seat.Kind.HUMAN and p.get("user_id") == user.pk
    ]


def owned_bot_seats(
    game: Game, players: Sequence[Mapping[str, Any]], user: User | None
) -> set[int]:
    """Seats of ``game`` held by a bot that ``user`` owns."""
    if user is None or not user.is_authenticated:
        return set()
    owned = {int(p["seat"]) for p in players if p.get("bot_owner_id") == user.pk}
    unknown = {
        int(p["seat"]): p["bot_version_id"]
        for p in players
        if p.get("kind") == Seat.Kind.BOT
        and p.get("bot_owner_id") is None
        and p.get("bot_version_id")
    }
    if unknown:
        version_model: Any = Seat._meta.get_field("bot_version").related_model
        mine = set(
            version_model.objects.filter(
                pk__in=unknown.values(), bot__owner_id=user.pk
            ).values_list("pk", flat=True)
        )
        owned |= {seat for seat, version in unknown.items() if version in mine}
    return owned


def require_deal_closed(game: Game) -> None:
    """``deal_in_play`` (a :class:`HistoryError`) when ``game`` is over but another game dealt
    the same cards is still to be played (:func:`games.deals.deal_is_open`: a Bot Arena set, a
    tournament round): its replay, export and lab data would show those hands."""
    if game.status != Game.Status.RUNNING and deal_is_open(game):
        raise HistoryError(
            DEAL_IN_PLAY,
            "these cards are still being played in another game: the replay opens once every "
            "game of this deal is over",
        )


def public_options(config: Any) -> JSON:
    """A game's config without anything that fixes the deal (a fixed deal is a secret too):
    the one rule, :func:`games.deals.public_config` (the bot API's ``game_start`` uses it)."""
    return public_config(config)


def clean_action(action: Mapping[str, Any]) -> JSON:
    return {k: v for k, v in action.items() if not k.startswith("_")}


def jsonish(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def record_bot_owner_id(bot_id: int) -> int | None:
    version_model: Any = Seat._meta.get_field("bot_version").related_model
    bot_model: Any = version_model._meta.get_field("bot").related_model
    owner: int | None = (
        bot_model.objects.filter(pk=bot_id).values_list("owner_id", flat=True).first()
    )
    return owner
