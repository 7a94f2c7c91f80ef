"""The Tiến Lên game module object, ``GAME``: its rules bound to the engine core's shape
(:class:`games.engine.core.game.GameBase` owns records, replays, history, sessions' shape …).

>>> from games.engine.tienlen import GAME
>>> GAME.name, GAME.rules_version, GAME.min_players, GAME.max_players
('tienlen', 'tienlen-1', 2, 4)
>>> state = GAME.new_game(GAME.default_config(), seed=12)
>>> GAME.state_from_json(GAME.state_to_json(state)) == state
True
>>> GAME.record(GAME.new_game({"players": 2}, 1))["actions"]
[]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.examples import BotExample
from games.engine.core.game import GameBase, seat_name
from games.engine.core.protocol import Event, SeatStat
from games.engine.core.text import cards_text, gettext_noop, seat_label
from games.engine.tienlen import ai, conformance, errors, reference, rules, samples, session, views
from games.engine.tienlen import state as state_json
from games.engine.tienlen.cards import mask_to_ids
from games.engine.tienlen.state import RULES_VERSION, TienLenState

__all__ = ["EVENT_MESSAGES", "GAME", "REASON_LABELS", "SYSTEM_MESSAGES", "TienLenGame"]

#: English templates of the system chat lines (:meth:`TienLenGame.system_line`); a cut's is
#: (singular, plural) by its points ``n``. The table page has a ``sys_<code>`` for each.
SYSTEM_MESSAGES: dict[str, str | tuple[str, str]] = {
    "cut": (
        gettext_noop("{name} cut {victim} ({n} point)."),
        gettext_noop("{name} cut {victim} ({n} points)."),
    ),
    "round_won": gettext_noop("{name} won round {round}."),
}

#: English templates of the history's event lines (:meth:`TienLenGame.event_line`); a cut's
#: and a void chain's are (singular, plural) by their points ``n``. The site translates them.
EVENT_MESSAGES: dict[str, str | tuple[str, str]] = {
    "played": gettext_noop("{name} played {cards} ({combo})"),
    "played_cut": gettext_noop("{name} played {cards} ({combo}) — a cut!"),
    "passed": gettext_noop("{name} passed"),
    "passed_auto": gettext_noop("{name} passed (auto)"),
    "cut": (
        gettext_noop("{name} cut {victim} for {n} point"),
        gettext_noop("{name} cut {victim} for {n} points"),
    ),
    "chain_void": (
        gettext_noop("{name} went out: the cut chain of {n} point is void"),
        gettext_noop("{name} went out: the cut chain of {n} points is void"),
    ),
    "player_out": gettext_noop("{name} is out (place {place})"),
    "round_won": gettext_noop("{name} won round {round}"),
    "round_won_huong_sai": gettext_noop("{name} won round {round} (hưởng sái)"),
    "instant_win": gettext_noop("{name} wins instantly ({kind})"),
}

#: Readable names of the result's transfer reasons (the history's result page).
REASON_LABELS: dict[str, str] = {
    "cards": "cards left",
    "cong": "cóng (never played)",
    "toi_trang": "tới trắng (instant win)",
    "chat": "chặt (cut)",
    "thui": "thúi (unplayed 2s / bombs)",
    "den_bai": "đền bài (pays for all)",
}


class TienLenGame(GameBase[TienLenState], modules=(rules, views, state_json, ai, session, samples)):
    """Tiến Lên Miền Nam for 2–4 players. Stateless: every method is a pure function.

    >>> TienLenGame()
    TienLenGame(name='tienlen', rules_version='tienlen-1')
    """

    name = "tienlen"
    title = "Tiến Lên Miền Nam"
    rules_version = RULES_VERSION
    min_players = 2
    max_players = 4
    state_type = TienLenState

    house_levels = ai.LEVELS
    table_options: Mapping[str, Any] = {"hide_hand_counts": False, "play_on_after_winner": False}
    table_option_labels: Mapping[str, str] = {
        "hide_hand_counts": gettext_noop("Hide hand counts"),
        "play_on_after_winner": gettext_noop("Play on after the winner"),
    }
    system_codes = tuple(SYSTEM_MESSAGES)
    system_messages = SYSTEM_MESSAGES
    reason_labels = REASON_LABELS
    #: Cóng (a seat in the result's ``cong``) and cuts made / suffered (``chat`` transfers).
    seat_stats = (
        SeatStat("cong", "listed", "cong", gettext_noop("Cóng")),
        SeatStat("cuts_made", "received", "chat", gettext_noop("Cuts made")),
        SeatStat("cuts_suffered", "paid", "chat", gettext_noop("Cuts suffered")),
    )
    scenario_format = conformance.FORMAT
    error_codes = errors.ERROR_CODES
    bot_error_sentences = errors.BOT_ERROR_SENTENCES
    points_unit = gettext_noop("Tiến Lên points")
    sample_players = 4
    bot_reference = reference.REFERENCE
    bot_files = "games.engine.tienlen"
    bot_examples = (
        BotExample(
            "random",
            gettext_noop("Random"),
            gettext_noop("Picks any legal move at random; sometimes passes."),
        ),
        BotExample(
            "greedy",
            gettext_noop("Greedy"),
            gettext_noop("Sheds the most cards as cheaply as possible; saves its 2s."),
        ),
        BotExample(
            "defensive",
            gettext_noop("Defensive"),
            gettext_noop("Keeps a strong hand and blocks opponents close to out."),
        ),
    )
    bot_template = "template"

    def duplicate_config(
        self, config: Mapping[str, Any], seed: int | str, rotation: int
    ) -> dict[str, Any] | None:
        """The rotated duplicate of a deal (see :meth:`GameBase.duplicate_config`): the
        hands of ``new_game(config, seed)`` rotated, and a fixed leader rotated with its hand
        (an opening game stays an opening game: whoever holds 3♠ leads).

        >>> g, cfg = TienLenGame(), {"players": 4, "opening": False, "leader": 2}
        >>> first, dup = g.new_game(cfg, 7), g.new_game(g.duplicate_config(cfg, 7, 1), 7)
        >>> dup.hands[1] == first.hands[2] and dup.turn == 1
        True
        """
        dealt = self.new_game(config, seed).dealt
        n = len(dealt)
        out = dict(config)
        out["hands"] = [mask_to_ids(dealt[(s + rotation) % n]) for s in range(n)]
        leader = config.get("leader")
        if leader is not None:
            out["leader"] = (int(leader) - rotation) % n
        return out

    def initial_events(self, state: TienLenState) -> list[Event]:
        """Events announcing a freshly dealt game: each seat's hand (private), then an instant
        win and game end, or the first turn.

        >>> [e.type for e in GAME.initial_events(GAME.new_game({"players": 2}, 1))]
        ['dealt', 'hand', 'hand', 'turn']
        """
        events = [
            Event(
                "dealt",
                {
                    "players": state.players,
                    "leader": state.game_leader,
                    "opening": state.config["opening"],
                },
            )
        ]
        events += [
            Event("hand", {"cards": mask_to_ids(h)}, to=s) for s, h in enumerate(state.hands)
        ]
        res = rules.result(state)
        if res is not None:
            events.append(Event("instant_win", {"seat": res["winner"], "kind": state.instant_win}))
            events.append(Event("game_ended", res))
        else:
            status = rules.round_status(state)
            events.append(
                Event(
                    "turn",
                    {
                        "seat": state.turn,
                        "round": 0,
                        "leading": True,
                        "at": state.turn_started_at,
                        "deadline": status.check_at,
                    },
                )
            )
        return events

    def check(self, state: TienLenState, action: Mapping[str, Any]) -> None:
        """Raise exactly what :meth:`apply` would raise, without applying.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.check(s, GAME.timeout_action(s, s.turn)) is None
        True
        """
        seat, mask, _, _ = rules.parse_action(action)
        rules.check(state, seat, mask)

    def turn_payload(self, state: TienLenState, seat: int) -> dict[str, Any]:
        """The ``your_turn`` fields of ``seat``: ``time_limit``, ``can_pass``, ``leading``,
        ``round``, ``top``, ``required_card`` and ``legal`` (each legal play's cards and
        combination name).

        >>> s = GAME.new_game({"players": 2, "opening": False, "leader": 0}, 1)
        >>> p = GAME.turn_payload(s, 0)
        >>> p["leading"], p["can_pass"], sorted(p["legal"][0])
        (True, False, ['cards', 'combo'])
        """
        legal = [
            {"cards": list(a["cards"]), "combo": ai.combo_name(a["cards"])}
            for a in rules.legal_actions(state, seat)
            if a["type"] == "play"
        ]
        top = views.top_play(state)
        return {
            "time_limit": state.config["turn_seconds"],
            "can_pass": rules.can_pass(state, seat),
            "leading": top is None,
            "round": state.round_index,
            "top": top,
            "required_card": views.required_card(state, seat),
            "legal": legal,
        }

    def system_line(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> tuple[str, dict[str, Any]] | None:
        """The table chat's line for a cut (``cut``: who cut whom for how many points) and a
        round's end (``round_won``, rounds counted from 1).

        >>> GAME.system_line("cut", {"seat": 0, "victim": 1, "points": 2}, ["Lan", "Bo"])
        ('cut', {'name': 'Lan', 'victim': 'Bo', 'n': 2})
        >>> GAME.system_message("round_ended", {"winner": 1, "round": 0}, ["Lan", "Bo"])
        'Bo won round 1.'
        >>> GAME.system_message("cut", {"seat": 0, "victim": 1, "points": 1}, ["Lan", "Bo"])
        'Lan cut Bo (1 point).'
        """
        if kind == "cut":
            return "cut", {
                "name": seat_name(names, data["seat"]),
                "victim": seat_name(names, data["victim"]),
                "n": data["points"],
            }
        if kind == "round_ended":
            return "round_won", {
                "name": seat_name(names, data["winner"]),
                "round": data["round"] + 1,
            }
        return None

    def event_line(
        self, event: Mapping[str, Any], names: Sequence[str]
    ) -> tuple[str | tuple[str, str], dict[str, Any]] | None:
        """The history's line (template of :data:`EVENT_MESSAGES` and params) for a play, a
        pass, a cut, a void cut chain, a seat going out, a round's end and an instant win;
        None for the others (the site's generic line). ``event_text`` is its English form.

        >>> GAME.event_line({"type": "passed", "seat": 0}, ["Lan"])
        ('{name} passed', {'name': 'Lan'})
        >>> GAME.event_text({"type": "cards_played", "seat": 1, "cards": ["3S", "4S", "5S"],
        ...                  "combo": "straight", "cut": False}, ["Lan", "Minh"])
        'Minh played 3♠ 4♠ 5♠ (straight)'
        >>> GAME.event_text({"type": "round_ended", "winner": 0, "round": 1}, ["Lan"])
        'Lan won round 2'
        >>> GAME.event_text({"type": "cut", "seat": 0, "victim": 1, "points": 1}, ["Lan", "Bo"])
        'Lan cut Bo for 1 point'
        >>> GAME.event_text({"type": "game_ended"}, ["Lan"]) is None
        True
        """
        kind = event.get("type")

        def name(key: str = "seat") -> str:
            return seat_label(names, event.get(key))

        if kind == "cards_played":
            code = "played_cut" if event.get("cut") else "played"
            params = {"name": name(), "cards": cards_text(event.get("cards"))}
            return EVENT_MESSAGES[code], {**params, "combo": event.get("combo")}
        if kind == "passed":
            code = "passed_auto" if event.get("auto") else "passed"
            return EVENT_MESSAGES[code], {"name": name()}
        if kind == "cut":
            who = {"name": name(), "victim": name("victim")}
            return EVENT_MESSAGES["cut"], {**who, "n": event.get("points")}
        if kind == "chain_void":
            return EVENT_MESSAGES["chain_void"], {"name": name(), "n": event.get("points")}
        if kind == "player_out":
            return EVENT_MESSAGES["player_out"], {"name": name(), "place": event.get("place")}
        if kind == "round_ended":
            rnd = event.get("round")
            number = rnd + 1 if isinstance(rnd, int) else "?"
            code = "round_won_huong_sai" if event.get("huong_sai") else "round_won"
            return EVENT_MESSAGES[code], {"name": name("winner"), "round": number}
        if kind == "instant_win":
            return EVENT_MESSAGES["instant_win"], {"name": name(), "kind": event.get("kind")}
        return None


#: The module object registered as ``"tienlen"``.
GAME = TienLenGame()
