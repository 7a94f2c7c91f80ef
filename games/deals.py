"""Deal secrecy: which games share one deal, and whether that deal is still being played.

Several games may be dealt the same cards: the games of a Bot Arena duplicate set (one table,
the deal rotated a seat per game), game *n* of every table of a tournament round (the round's
seed *n*), and later anything else built on fixed deals. Once one of them is over, its replay
would show the hands still being played in the others. So (docs/history.md "Deal secrecy"):

**A deal's hands, its seed, and every replay, export or page derived from a game of that deal
stay hidden from everyone but each seat's own view until every game of that deal is over,
everywhere.**

* :func:`game_deal` gives every game its :class:`Deal`: a stable ``key`` and the ``slots``
  (table id, game number) of every game dealt those cards, from the first registered
  :data:`DealSource` that claims the game (:func:`set_deal_source`; the arena's is here, the
  tournaments register theirs), else a deal of its own.
* :func:`deal_is_open` says whether any slot of the game's deal is still to be played: a game
  running, or not dealt yet at a table that will still deal it. Every history, export, Replay
  lab and API path asks it (:func:`deal_guard` raises the stable code :data:`DEAL_IN_PLAY`).
* :func:`public_config` is the one rule for a game's config as others may see it (history,
  exports, the bot API's ``game_start``): without the keys that fix the deal
  (:data:`PRIVATE_CONFIG_KEYS`); :func:`deal_result` is a result while the deal is open (only
  what does not show cards).
* :func:`spectator_access` is what a **live** spectator of a game may see while its deal is
  open elsewhere (nothing of the cards while another table plays it; no end-of-game reveal
  while a later game of the same table deals it), :func:`spectator_frame` applies it to a frame.

>>> public_config({"players": 4, "hands": [["3S"]], "seed": 1, "opening": True})
{'players': 4, 'opening': True}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import seeds
from games.models import Game, Mode, Table

__all__ = [
    "CARD_PARAMS",
    "DEAL_IN_PLAY",
    "PRIVATE_CONFIG_KEYS",
    "PUBLIC_RESULT_KEYS",
    "SPECTATOR_FULL",
    "SPECTATOR_HIDDEN",
    "SPECTATOR_NO_REVEAL",
    "Deal",
    "DealInPlay",
    "DealSource",
    "arena_deal",
    "deal_guard",
    "deal_is_open",
    "deal_result",
    "deal_slots_changed",
    "game_deal",
    "line_shows_cards",
    "public_config",
    "set_deal_source",
    "spectator_access",
    "spectator_frame",
]

#: The stable error code of a refused replay, export or lab request while the deal is open.
DEAL_IN_PLAY = "deal_in_play"

#: Config keys that fix (part of) a deal: a fixed deal is a secret like the seed. History,
#: exports and the bot API's ``game_start`` never show them.
PRIVATE_CONFIG_KEYS = ("hands", "cards", "deck", "stock", "seed")

#: What a finished game's result shows while its deal is open (no key that holds cards: Tiến
#: Lên's and Diu's ``hands``, stud's ``shown`` / ``showdown``, Diu's ``melds``…).
PUBLIC_RESULT_KEYS = ("scores", "winner", "ranking", "transfers", "instant_win", "finished")


def public_config(config: Any) -> dict[str, Any]:
    """``config`` without anything that fixes the deal (:data:`PRIVATE_CONFIG_KEYS`): what a
    seat, a spectator, a replay or an export may see of a game's config."""
    if not isinstance(config, Mapping):
        return {}
    return {k: v for k, v in config.items() if k not in PRIVATE_CONFIG_KEYS}


@dataclass(frozen=True)
class Deal:
    """One deal: ``key`` names it (``arena:<table>:<first game>``, ``round:<round>:<n>``,
    ``game:<id>``); ``slots`` are the ``(table id, game number)`` of every game dealt it."""

    key: str
    slots: tuple[tuple[int, int], ...]


#: Gives the deal of a game when the source deals it (else None): ``source(game)``.
DealSource = Callable[[Game], "Deal | None"]
_sources: list[DealSource] = []


def set_deal_source(source: DealSource) -> DealSource:
    """Register ``source`` (once) as a way games share deals (a tournament round, a ladder…);
    returns it. Every deal-secrecy check then covers its games."""
    if source not in _sources:
        _sources.append(source)
    return source


def _session_length(table: Table) -> int:
    session = table.session if isinstance(table.session, dict) else {}
    return int(session.get("games") or table.options.get("session_length", 16))


def arena_deal(game: Game) -> Deal | None:
    """A Bot Arena duplicate set (``games.seeds.duplicate_set``): the set's games of the table,
    up to the session's length."""
    table = game.table
    if table.mode != Mode.ARENA.value:
        return None
    n = table.seat_count
    first, _rotation = seeds.duplicate_set(int(game.number), n)
    last = min(first + n - 1, max(_session_length(table), first))
    return Deal(
        key=f"arena:{table.pk}:{first}",
        slots=tuple((table.pk, number) for number in range(first, last + 1)),
    )


set_deal_source(arena_deal)


def game_deal(game: Game) -> Deal:
    """The deal of ``game``: the first registered source's, else a deal of its own."""
    for source in _sources:
        deal = source(game)
        if deal is not None:
            return deal
    return Deal(key=f"game:{game.pk}", slots=((int(game.table_id), int(game.number)),))


def _open_slots(slots: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ``slots`` still to be played: their game is running, or their table has not dealt
    it yet and is not completed (a completed or abandoned table will not deal it)."""
    if not slots:
        return []
    tables = {table for table, _ in slots}
    numbers = {number for _, number in slots}
    played = {
        (table, number): status
        for table, number, status in Game.objects.filter(
            table_id__in=tables, number__in=numbers
        ).values_list("table_id", "number", "status")
    }
    out = [slot for slot in slots if played.get(slot) == Game.Status.RUNNING]
    waiting = [slot for slot in slots if slot not in played]
    if waiting:
        live = set(
            Table.objects.filter(pk__in={table for table, _ in waiting})
            .exclude(status=Table.Status.COMPLETED)
            .values_list("pk", flat=True)
        )
        out.extend(slot for slot in waiting if slot[0] in live)
    return out


def deal_is_open(game: Game) -> bool:
    """Whether the deal of ``game`` is still being played somewhere: a game of it is running,
    or a table of it has not dealt its game yet and still will (it is not completed). A game of
    an open deal shows only what a live spectator sees (docs/history.md "Deal secrecy")."""
    if game.status == Game.Status.RUNNING:
        return True
    slots = game_deal(game).slots
    if len(slots) == 1 and slots[0] == (game.table_id, game.number):
        return False  # a deal of its own, and this game is over
    return bool(_open_slots(slots))


#: :func:`spectator_access`: a spectator sees the game as it is (its deal is played nowhere
#: else any more, or it is a deal of its own).
SPECTATOR_FULL = "full"
#: Live plays, but not the end-of-game reveal: a later game **of the same table** still deals
#: these cards (a Bot Arena set's next rotations).
SPECTATOR_NO_REVEAL = "no_reveal"
#: No card at all: the deal is being (or will be) played at **another table** (a tournament
#: round's other tables), where a watcher could relay what they see.
SPECTATOR_HIDDEN = "hidden"


#: The last :func:`spectator_access` answer of each slot ``(table id, game number)`` in this
#: process, and its deal: what a run of server turns reads instead of the database
#: (:func:`known_spectator_access`). Refreshed by every :func:`spectator_access`; a game's
#: end forgets its deal's slots.
_known: dict[tuple[int, int], tuple[Deal, str]] = {}
_KNOWN_MAX = 4096


def spectator_access(game: Game) -> str:
    """What a live spectator of ``game``'s table may see of it now: :data:`SPECTATOR_HIDDEN`
    while another table still plays (or will deal) its deal, :data:`SPECTATOR_NO_REVEAL` while
    only later games of the same table do, else :data:`SPECTATOR_FULL`. The one rule for every
    spectator frame and the table page's snapshot (:func:`spectator_frame`). Seated players are
    not concerned: they see their own game as ever. Each answer is remembered for
    :func:`known_spectator_access`."""
    own = (int(game.table_id), int(game.number))
    deal = game_deal(game)
    others = [slot for slot in deal.slots if slot != own]
    access = SPECTATOR_FULL
    if others:
        still = _open_slots(others)
        if any(table != own[0] for table, _ in still):
            access = SPECTATOR_HIDDEN
        elif still:
            access = SPECTATOR_NO_REVEAL
    if len(_known) >= _KNOWN_MAX:
        _known.pop(next(iter(_known)))
    _known[own] = (deal, access)
    return access


def known_spectator_access(game: Game) -> str | None:
    """:func:`spectator_access` without the database, for a run of server turns that plays
    its moves in memory (``games.services.runs``): the answer last computed for this game in
    this process, None if there is none (the run then plays that move the usual way). It errs
    on the side of hiding: a deal closed since shows at the next sync, or from the next move
    played outside a run."""
    known = _known.get((int(game.table_id), int(game.number)))
    return known[1] if known is not None else None


def deal_slots_changed(game: Game) -> list[tuple[int, int]]:
    """``game`` (of a shared deal) has ended: forget the cached answers of its deal's slots
    (:func:`spectator_access`) and return the deal's slots at **other** tables, whose
    spectators should sync again (docs/protocol.md "Deal secrecy")."""
    own = (int(game.table_id), int(game.number))
    known = _known.get(own)
    deal = known[0] if known is not None else game_deal(game)
    for slot in deal.slots:
        _known.pop(slot, None)
    return [slot for slot in deal.slots if slot[0] != own[0]]


#: A system line's params that name cards or a hand (Diu's melds, a stud winner's hand, an
#: instant win): a hidden spectator does not get such a line (:func:`line_shows_cards`).
CARD_PARAMS = ("cards", "card", "card_name", "hand", "instant")


def line_shows_cards(params: Any) -> bool:
    """Whether a system chat line's ``params`` name cards or a hand (:data:`CARD_PARAMS`).

    >>> line_shows_cards({"name": "Lan", "cards": "W 66"}), line_shows_cards({"name": "Lan"})
    (True, False)
    """
    return isinstance(params, Mapping) and any(key in params for key in CARD_PARAMS)


def spectator_frame(frame: Mapping[str, Any], access: str, *, finished: bool = False) -> Any:
    """``frame`` (a game frame: ``game_started``, ``game_state_update``, ``game_ended``,
    ``turn_timeout``) as a spectator with ``access`` may receive it; the frame itself when
    nothing is held back. A held-back frame carries ``"hidden": "deal_in_play"``
    (docs/protocol.md "Deal secrecy"): a state frame has ``state`` null and no events (always
    when hidden; with no_reveal only the one that ends the game, ``finished``), ``game_ended``
    only the public result keys and no longest play, ``turn_timeout`` the action's type only."""
    if access == SPECTATOR_FULL:
        return frame
    kind = frame.get("type")
    if kind in ("game_started", "game_state_update"):
        if access == SPECTATOR_NO_REVEAL and not finished:
            return frame
        return {**frame, "state": None, "events": [], "hidden": DEAL_IN_PLAY}
    if kind == "game_ended":
        result = frame.get("result")
        if isinstance(result, Mapping):
            result = {k: v for k, v in result.items() if k in PUBLIC_RESULT_KEYS}
        stats = frame.get("stats")
        if isinstance(stats, Mapping):
            stats = {**stats, "longest": None}
        return {**frame, "result": result, "stats": stats, "hidden": DEAL_IN_PLAY}
    if kind == "turn_timeout" and access == SPECTATOR_HIDDEN:
        action = frame.get("action")
        kept = {"type": action.get("type")} if isinstance(action, Mapping) else {}
        return {**frame, "action": kept, "hidden": DEAL_IN_PLAY}
    return frame


class DealInPlay(ValueError):
    """A finished game's replay, export or lab data asked for while its deal is open."""

    code = DEAL_IN_PLAY

    def __init__(self, detail: str = "") -> None:
        self.detail = detail or "this deal is still being played at another table or game"
        super().__init__(f"{DEAL_IN_PLAY}: {self.detail}")


def deal_guard(game: Game) -> None:
    """Raise :class:`DealInPlay` when ``game`` is over but its deal is still open: what would
    show its hands, seed or per-seat views (a replay, an export, the Replay lab) waits."""
    if game.status != Game.Status.RUNNING and deal_is_open(game):
        raise DealInPlay()


def deal_result(game: Game, result: Any) -> Any:
    """``result`` as it may be shown now: whole once the deal is closed; while it is open only
    :data:`PUBLIC_RESULT_KEYS` (the scores, not the cards)."""
    if not isinstance(result, Mapping) or not deal_is_open(game):
        return result
    return {k: v for k, v in result.items() if k in PUBLIC_RESULT_KEYS}
