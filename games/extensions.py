"""The extension points of the live tables, declared here and registered by other apps.

``games`` never imports the apps that extend it: the bots app registers itself in
``BotsConfig.ready()`` (``bots/apps.py``), and an import-linter contract keeps ``games`` from
importing ``bots``.

- **Who plays a bot seat.** :func:`bot_player` is the function that chooses the move of a seat
  of kind ``bot``; :func:`set_bot_player` installs one (the bots app installs
  ``bots.turns.bot_seat_player``, the version's code in the sandbox). Until one is installed
  :func:`house_bot_player` plays (the house AI at medium strength).
- **What happens when a game finishes.** Every function registered with
  :func:`on_game_finished` is called as ``hook(game=game, table=table)`` inside the transaction
  that finishes a game, so it can enqueue its own work with ``transaction.on_commit`` (the bots
  app closes the game's sandboxes and rates arena games).
- **What happens when a game is aborted.** Every function registered with
  :func:`on_game_aborted` is called as ``hook(game=game, table=table, reason=reason)`` inside
  the transaction that aborts a running game (its session ended: ``reason`` ``host`` or
  ``abandoned``); the bots app tells the external bots that sat in it (``game_end``).
- **What happens when beat announces the tables' versions.** Every function registered with
  :func:`on_versions_announced` is called as ``hook(games=[...])`` after beat's
  ``games.timers_heal`` sent its ``game_version`` frames (:func:`games.services.versions_announce`),
  with one :class:`AnnouncedGame` per announced table: the bots app re-sends an external bot's
  open turn, or re-arms the turn its program never got (a move's process died between its
  commit and its frames).
- **Which bots a user may seat.** :func:`bot_seat_choices` lists them for the Create Table form
  (none until an app installs a lister with :func:`set_bot_seat_choices`).
- **Whether bots may be seated now.** :func:`bot_seat_guard` is called as
  ``guard(user=..., version_ids=[...], table_id=...)`` inside the transaction that seats bot
  versions (a new table's bot seats, the ``add_bot`` frame) and raises a ``ValidationError``
  with a stable code to refuse; the bots app installs ``bots.seating.external_seats_check``
  (an external bot's limit of games, its owner's share, offline bots) with
  :func:`set_bot_seat_guard`. Until one is installed nothing is refused here.
- **Who takes a seat a person gave up in a rematch.** :func:`rematch_seat_taker` is called as
  ``taker(table=..., seat=..., seats=[...], leaving={...})`` (table row locked, ``seat`` still
  the decliner's; ``leaving``: the indexes of every seat whose person declined)
  and returns True when it saved the seat as someone else's; the games app installs the
  quick-play pool's (``games.quickplay.services.rematch_seat_take``) with
  :func:`set_rematch_seat_taker`. Until one is installed nobody takes it (a house AI sits).
- **Notes on a table page.** Every function registered with :func:`on_table_notes` is called
  as ``hook(table=table, seats=seats)`` by the table page and returns lines to show under the
  top bar (the bots app says why an arena session is unrated).

>>> previous = set_bot_player(None)
>>> bot_player() is house_bot_player
True
>>> _ = set_bot_player(previous)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from games.engine.core.protocol import Game as EngineGame
    from games.models import Game, Seat


class AnnouncedGame(NamedTuple):
    """A table's game whose version beat has just announced (``game_version``)."""

    table_id: int
    game_id: int
    number: int
    version: int
    running: bool
    last_at: float
    """When it last moved (or was dealt): unix seconds on :mod:`games.clock`."""


class BotPlayer(Protocol):
    """Chooses the move of a seat of kind ``bot`` (see :func:`house_bot_player`)."""

    def __call__(
        self, *, seat: Seat, game: Game, engine: EngineGame, state: Any
    ) -> dict[str, Any]: ...


#: Called as ``hook(game=game, table=table)`` when a game finishes.
GameFinishedHook = Callable[..., None]
#: Called as ``hook(game=game, table=table, reason=reason)`` when a running game is aborted.
GameAbortedHook = Callable[..., None]
#: Called as ``hook(game=game, table=table, seats=seats)`` inside the transaction that deals
#: ``game`` (before its first turn is scheduled).
GameDealtHook = Callable[..., None]
#: Called as ``hook(games=[AnnouncedGame, ...])`` after beat announced the tables' versions.
VersionsAnnouncedHook = Callable[..., object]
#: ``lister(user, game=None, free=True)``: ``("bot:<version id>", label)`` choices of the
#: Create Table form.
BotSeatChoices = Callable[..., list[tuple[str, str]]]
#: ``guard(user=, version_ids=, table_id=None)``: raises ``ValidationError`` to refuse a seating.
BotSeatGuard = Callable[..., None]
#: ``taker(table=, seat=, seats=, leaving=)`` -> whether it gave the seat to someone (rematch).
RematchSeatTaker = Callable[..., bool]


def house_bot_player(*, seat: Seat, game: Game, engine: EngineGame, state: Any) -> dict[str, Any]:
    """The default :class:`BotPlayer`: the house AI's move at medium strength.

    The contract of every bot player: it is called by the ``games.seat_autoplay`` task on the
    game's bot queue, *outside* the table lock, with the seat (``seat.bot_version`` holds the
    code), the game row and the engine state. It returns an engine action (``{"type": "play",
    "cards": [...]}``, ``{"type": "pass"}``…), optionally with the move's owner-only record
    under ``"bot_record"``; a raised exception or an illegal action counts a strike (3
    disqualify the bot), its ``code`` is the strike reason and its ``record`` (if any) is
    stored too. Moves of this player are marked ``bot`` like any bot's.

    A player whose move for a seat depends on what is stored (a program outside the worker
    that checks its move against the stored game, as external bots do) sets an attribute
    ``needs_stored_game(seat) -> bool``: the seat's turn then waits until the moves before it
    are stored (a run of server turns holds them for a few milliseconds,
    games/services/runs.py).
    """
    return dict(engine.house_action(state, seat.index, "medium"))


class TurnSuperseded(Exception):
    """Raised by a bot player asked for a turn that was played already (a duplicate delivery
    of the turn's task, run after the first copy stored its move): the turn is dropped,
    nothing is stored and no strike counted (docs/bot-affinity.md)."""


def needs_stored_game(player: BotPlayer, seat: Seat) -> bool:
    """Whether ``player``'s move for ``seat`` needs the moves before it stored first."""
    check = getattr(player, "needs_stored_game", None)
    return bool(check(seat)) if check is not None else False


_bot_player: BotPlayer | None = None
_game_finished: list[GameFinishedHook] = []
_game_dealt: list[GameDealtHook] = []
_game_aborted: list[GameAbortedHook] = []
_versions_announced: list[VersionsAnnouncedHook] = []
_bot_seat_choices: BotSeatChoices | None = None
_bot_seat_guard: BotSeatGuard | None = None
_table_notes: list[Callable[..., list[str]]] = []
_rematch_seat_taker: RematchSeatTaker | None = None


def set_bot_player(player: BotPlayer | None) -> BotPlayer | None:
    """Install ``player`` as the bot seats' player (None: back to :func:`house_bot_player`);
    returns the one installed before, so a caller can put it back."""
    global _bot_player
    previous, _bot_player = _bot_player, player
    return previous


def bot_player() -> BotPlayer:
    """The installed bot player, or :func:`house_bot_player` when none is."""
    return _bot_player if _bot_player is not None else house_bot_player


def on_game_finished(hook: GameFinishedHook) -> GameFinishedHook:
    """Register ``hook`` to be called when a game finishes (once, however often it is
    registered); returns it, so it works as a decorator."""
    if hook not in _game_finished:
        _game_finished.append(hook)
    return hook


def game_finished_hooks() -> tuple[GameFinishedHook, ...]:
    """The registered game-finished hooks, in registration order."""
    return tuple(_game_finished)


def on_game_aborted(hook: GameAbortedHook) -> GameAbortedHook:
    """Register ``hook`` to be called when a running game is aborted (once, however often it
    is registered); returns it."""
    if hook not in _game_aborted:
        _game_aborted.append(hook)
    return hook


def game_aborted_hooks() -> tuple[GameAbortedHook, ...]:
    """The registered game-aborted hooks, in registration order."""
    return tuple(_game_aborted)


def on_versions_announced(hook: VersionsAnnouncedHook) -> VersionsAnnouncedHook:
    """Register ``hook`` to be called after beat announced the versions of the tables that
    moved lately (once, however often it is registered); returns it."""
    if hook not in _versions_announced:
        _versions_announced.append(hook)
    return hook


def versions_announced_hooks() -> tuple[VersionsAnnouncedHook, ...]:
    """The registered versions-announced hooks, in registration order."""
    return tuple(_versions_announced)


def on_game_dealt(hook: GameDealtHook) -> GameDealtHook:
    """Register ``hook`` to be called when a game is dealt (once, however often it is
    registered; the bots app starts the game's bot sandboxes); returns it."""
    if hook not in _game_dealt:
        _game_dealt.append(hook)
    return hook


def game_dealt_hooks() -> tuple[GameDealtHook, ...]:
    """The registered game-dealt hooks, in registration order."""
    return tuple(_game_dealt)


def set_bot_seat_choices(lister: BotSeatChoices | None) -> BotSeatChoices | None:
    """Install the lister of :func:`bot_seat_choices` (None: none); returns the previous one."""
    global _bot_seat_choices
    previous, _bot_seat_choices = _bot_seat_choices, lister
    return previous


def bot_seat_choices(
    user: Any, game: str | None = None, *, free: bool = True
) -> list[tuple[str, str]]:
    """The bot versions ``user`` may seat (of ``game`` only, when given) as form choices
    ``("bot:<version id>", label)``; [] while no app installed a lister. ``free=False`` (a
    posted form) keeps the bots that cannot be seated just now (the seating says why).

    >>> previous = set_bot_seat_choices(None)
    >>> bot_seat_choices(None)
    []
    >>> _ = set_bot_seat_choices(previous)
    """
    return _bot_seat_choices(user, game=game, free=free) if _bot_seat_choices is not None else []


def set_bot_seat_guard(guard: BotSeatGuard | None) -> BotSeatGuard | None:
    """Install the guard of :func:`bot_seat_guard` (None: none); returns the previous one."""
    global _bot_seat_guard
    previous, _bot_seat_guard = _bot_seat_guard, guard
    return previous


def bot_seat_guard(*, user: Any, version_ids: Any, table_id: int | None = None) -> None:
    """Let the installed guard refuse to seat ``version_ids`` for ``user`` (at the table
    ``table_id``, or a new one): it raises ``ValidationError`` (a stable ``code``). Call it in
    the seating transaction, before the seats are written.

    >>> previous = set_bot_seat_guard(None)
    >>> bot_seat_guard(user=None, version_ids=[1])
    >>> _ = set_bot_seat_guard(previous)
    """
    if _bot_seat_guard is not None:
        _bot_seat_guard(user=user, version_ids=list(version_ids), table_id=table_id)


def set_rematch_seat_taker(taker: RematchSeatTaker | None) -> RematchSeatTaker | None:
    """Install the taker of :func:`rematch_seat_take` (None: none); returns the previous one."""
    global _rematch_seat_taker
    previous, _rematch_seat_taker = _rematch_seat_taker, taker
    return previous


def rematch_seat_take(*, table: Any, seat: Any, seats: Any, leaving: Any = ()) -> bool:
    """Offer ``seat`` (a person declined the rematch; the table row is locked) to the installed
    taker: True when it saved the seat as someone else's, False (nobody installed, or nobody
    fits) to have a house AI sit.

    >>> previous = set_rematch_seat_taker(None)
    >>> rematch_seat_take(table=None, seat=None, seats=[])
    False
    >>> _ = set_rematch_seat_taker(previous)
    """
    if _rematch_seat_taker is None:
        return False
    return bool(
        _rematch_seat_taker(table=table, seat=seat, seats=list(seats), leaving=set(leaving))
    )


def on_table_notes(hook: Callable[..., list[str]]) -> Callable[..., list[str]]:
    """Register ``hook(table=..., seats=...) -> [line, ...]`` for the table page (idempotent)."""
    if hook not in _table_notes:
        _table_notes.append(hook)
    return hook


def table_notes(*, table: Any, seats: Any) -> list[str]:
    """The lines every registered notes hook gives for ``table`` (in registration order)."""
    return [line for hook in _table_notes for line in hook(table=table, seats=seats)]


__all__ = [
    "AnnouncedGame",
    "BotPlayer",
    "BotSeatChoices",
    "BotSeatGuard",
    "GameAbortedHook",
    "GameFinishedHook",
    "RematchSeatTaker",
    "bot_player",
    "bot_seat_choices",
    "bot_seat_guard",
    "game_aborted_hooks",
    "game_finished_hooks",
    "house_bot_player",
    "on_game_aborted",
    "on_game_finished",
    "on_table_notes",
    "on_versions_announced",
    "rematch_seat_take",
    "set_bot_player",
    "set_bot_seat_choices",
    "set_bot_seat_guard",
    "set_rematch_seat_taker",
    "table_notes",
    "versions_announced_hooks",
]
