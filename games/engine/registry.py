"""The registry of games, so tables, bots and replays never special-case one.

>>> find_game("tienlen").name
'tienlen'
>>> find_game("poker")
Traceback (most recent call last):
...
games.engine.core.errors.UnknownGameError: unknown_game: no game named 'poker'
"""

from __future__ import annotations

from games.engine.core.errors import ERROR_CODES, UnknownGameError
from games.engine.core.protocol import Game
from games.engine.diu import GAME as DIU
from games.engine.stud import GAME as STUD
from games.engine.tienlen import GAME as TIENLEN

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "bot_error_sentences",
    "error_codes",
    "find_game",
    "register",
    "unregister",
]

#: Every playable game by name.
GAMES: dict[str, Game] = {TIENLEN.name: TIENLEN, STUD.name: STUD, DIU.name: DIU}
#: The game a new table or bot plays unless another is chosen.
DEFAULT_GAME = TIENLEN.name


def find_game(name: str) -> Game:
    """The game registered under ``name``; ``unknown_game`` otherwise.

    >>> find_game("tienlen").rules_version
    'tienlen-1'
    """
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise UnknownGameError(str(name))
    return game


def register(game: Game) -> Game:
    """Add ``game`` to :data:`GAMES` under its ``name`` and return it (a game written for the
    tests registers itself this way; the site's games are listed above). A name already taken
    by another game is a ``ValueError``; registering the same object again changes nothing.

    >>> from games.engine.stud import StudGame
    >>> class Demo(StudGame):
    ...     name = "demo"
    >>> register(Demo()).name, find_game("demo").title
    ('demo', 'Seven-Card Stud')
    >>> register(Demo())
    Traceback (most recent call last):
    ...
    ValueError: a game named 'demo' is already registered
    >>> unregister("demo"), "demo" in GAMES
    (True, False)
    """
    if not isinstance(game.name, str) or not game.name:
        raise ValueError("a game needs a name")
    known = GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    GAMES[game.name] = game
    return game


def unregister(name: str) -> bool:
    """Remove the game registered under ``name``; True if there was one.

    >>> unregister("no-such-game")
    False
    """
    return GAMES.pop(name, None) is not None


def error_codes() -> dict[str, str]:
    """Every code an engine may raise, with its description: each registered game's own
    rulings (``game.error_codes``, game by game), then the codes every game shares
    (:data:`games.engine.core.errors.ERROR_CODES`: its rulings, then malformed input from
    ``bad_card`` on).

    >>> codes = error_codes()
    >>> codes["hand_over"], "needs_vong" in codes, "wild_discard" in codes, "bad_card" in codes
    ('the hand has ended', True, True, True)
    """
    out: dict[str, str] = {}
    for game in GAMES.values():
        out.update(game.error_codes)
    return {**out, **ERROR_CODES}


def bot_error_sentences() -> dict[str, str]:
    """The sentences a bot's author reads for the registered games' own codes, by code.

    >>> bot_error_sentences()["cap_reached"]
    'No more raises on this street: a bet and three raises have been made.'
    """
    out: dict[str, str] = {}
    for game in GAMES.values():
        out.update(game.bot_error_sentences)
    return out


# --------------------------------------------------------------------------- rules versions
class UnknownRulesVersionError(UnknownGameError):
    """No engine for a game's stored rules version; code ``unknown_rules_version``.

    >>> UnknownRulesVersionError("tienlen", "tienlen-0").code
    'unknown_rules_version'
    """

    def __init__(self, name: str, rules_version: str) -> None:
        super().__init__(name)
        self.code = "unknown_rules_version"
        self.detail = f"no engine for rules version {rules_version!r} of {name!r}"
        self.args = (f"{self.code}: {self.detail}",)


#: Engines of earlier rules versions still needed to replay old games, by (name, version).
#: When a game's rules change, keep its previous module object here under its old version.
RULES_VERSIONS: dict[tuple[str, str], Game] = {}


def find_game_version(name: str, rules_version: str) -> Game:
    """The engine that plays ``name`` under ``rules_version`` (replays of older games use it);
    ``unknown_game`` for an unknown name, ``unknown_rules_version`` for an unknown version.

    >>> find_game_version("tienlen", "tienlen-1").rules_version
    'tienlen-1'
    >>> find_game_version("tienlen", "tienlen-0")
    Traceback (most recent call last):
    ...
    games.engine.registry.UnknownRulesVersionError: unknown_rules_version: no engine for ...
    """
    game = find_game(name)
    if game.rules_version == rules_version:
        return game
    older = RULES_VERSIONS.get((name, rules_version))
    if older is None:
        raise UnknownRulesVersionError(name, str(rules_version))
    return older
