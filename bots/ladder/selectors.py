"""What the ladder's pages and API read: each ladder's lines (rank range, skill with its
interval, games, state, recent sets' games) and a bot's placements."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bots.arena import level_label, skill_band
from bots.ladder import core
from bots.ladder.services import POLICY, Ladder, find_ladder, ladders
from bots.models import Bot, LadderEntrant, LadderSet, LadderTable, game_title

__all__ = [
    "RECENT_SETS",
    "LadderLine",
    "bot_placements",
    "get_ladder",
    "ladder_json",
    "ladder_lines",
    "ladder_list",
    "line_json",
    "state_label",
    "suspension_reason",
]

#: Recent sets listed for each line (each with its rotations' games).
RECENT_SETS = 5


@dataclass
class LadderLine:
    entrant_id: int
    kind: str  # "bot" | "house"
    name: str
    owner: str
    owner_id: int | None
    bot_id: int | None
    version: int | None
    level: str
    rank: tuple[int, int] | None
    estimate: int
    band: int
    mu: float
    sigma: float
    games: int
    faults: int
    state: str
    reason: str
    recent: list[dict[str, Any]] = field(default_factory=list)
    #: Shown to the bot's owner only: why it is suspended.
    note: str = ""

    @property
    def rank_text(self) -> str:
        if self.rank is None:
            return "—"
        best, worst = self.rank
        return str(best) if best == worst else f"{best}–{worst}"


def state_label(state: str) -> str:
    return str(LadderEntrant.State(state).label) if state in LadderEntrant.State.values else state


def suspension_reason(entrant: LadderEntrant | LadderLine) -> str:
    """Why a version is suspended, for its owner (both languages)."""
    if entrant.reason == "faults":
        return _(
            "Suspended: it crashed, timed out or made an illegal move in %(faults)s of its "
            "%(games)s ladder games (more than %(share)s%%). Promote a fixed version to enter "
            "again."
        ) % {
            "faults": entrant.faults,
            "games": entrant.games,
            "share": round(POLICY.fault_share * 100),
        }
    return ""


def _recent(entrant_id: int) -> list[dict[str, Any]]:
    sets = list(
        LadderSet.objects.filter(field__contains=[entrant_id], status=LadderSet.Status.FINISHED)
        .order_by("-pk")
        .values_list("pk", flat=True)[:RECENT_SETS]
    )
    tables: dict[int, list[str]] = {}
    for set_id, code in (
        LadderTable.objects.filter(ladder_set_id__in=sets)
        .order_by("ladder_set_id", "rotation")
        .values_list("ladder_set_id", "table__code")
    ):
        tables.setdefault(set_id, []).append(code)
    return [
        {
            "set": set_id,
            "games": [
                {
                    "table": code,
                    "number": 1,
                    "url": reverse("tables:game", args=[code, 1]),
                    "replay": reverse("tables:replay", args=[code, 1]),
                }
                for code in tables.get(set_id, [])
            ],
        }
        for set_id in sets
    ]


def _line(e: LadderEntrant, rank: tuple[int, int] | None, *, recent: bool) -> LadderLine:
    estimate, band = skill_band(e.mu, e.sigma)
    if e.anchor:
        name = _("House AI (%(level)s)") % {"level": level_label(e.house_level)}
        owner = ""
    else:
        assert e.bot is not None
        assert e.version is not None
        name = f"{e.bot.name} v{e.version.number}"
        owner = e.bot.owner.public_name
    return LadderLine(
        entrant_id=e.pk,
        kind="house" if e.anchor else "bot",
        name=name,
        owner=owner,
        owner_id=e.bot.owner_id if e.bot is not None else None,
        bot_id=e.bot_id,
        version=e.version.number if e.version is not None else None,
        level=e.house_level,
        rank=rank,
        estimate=estimate,
        band=band,
        mu=e.mu,
        sigma=e.sigma,
        games=e.games,
        faults=e.faults,
        state=e.state,
        reason=e.reason,
        recent=_recent(e.pk) if recent else [],
    )


def ladder_lines(ladder: Ladder, *, recent: bool = True) -> list[LadderLine]:
    """The ladder's lines, best first: the active entrants with their rank range
    (:func:`bots.ladder.core.rank_ranges`), then the suspended ones (no rank). Replaced
    versions are not listed."""
    rows = list(
        LadderEntrant.objects.filter(game=ladder.game, seats=ladder.seats)
        .exclude(state=LadderEntrant.State.RETIRED)
        .select_related("bot__owner", "version")
    )
    active = [r for r in rows if r.state != LadderEntrant.State.SUSPENDED]
    ranges = core.rank_ranges(
        [core.Entry(r.pk, r.mu, r.sigma, r.games, anchor=r.anchor) for r in active], POLICY.z
    )
    active.sort(key=lambda r: (-r.mu, r.pk))
    lines = [_line(r, ranges[r.pk], recent=recent) for r in active]
    lines += [
        _line(r, None, recent=recent) for r in rows if r.state == LadderEntrant.State.SUSPENDED
    ]
    return lines


def line_json(line: LadderLine) -> dict[str, Any]:
    return {
        "entrant": line.entrant_id,
        "kind": line.kind,
        "name": line.name,
        "owner": line.owner or None,
        "bot_id": line.bot_id,
        "version": line.version,
        "house_level": line.level or None,
        "rank": list(line.rank) if line.rank is not None else None,
        "estimate": line.estimate,
        "interval": line.band,
        "mu": round(line.mu, 4),
        "sigma": round(line.sigma, 4),
        "games": line.games,
        "state": line.state,
        "recent": line.recent,
    }


def ladder_json(ladder: Ladder) -> dict[str, Any]:
    return {
        "game": ladder.game,
        "seats": ladder.seats,
        "sets_played": LadderSet.objects.filter(
            game=ladder.game, seats=ladder.seats, status=LadderSet.Status.FINISHED
        ).count(),
        "entrants": [line_json(line) for line in ladder_lines(ladder)],
    }


def ladder_list() -> list[dict[str, Any]]:
    return [
        {
            "game": lad.game,
            "seats": lad.seats,
            "title": game_title(lad.game),
            "url": reverse("api:ladder-detail", args=[lad.game, lad.seats]),
        }
        for lad in ladders()
    ]


def bot_placements(bot: Bot) -> list[tuple[Ladder, LadderLine]]:
    """``bot``'s current (not replaced) version in every ladder, with its line."""
    found = []
    for ladder in ladders():
        for line in ladder_lines(ladder, recent=True):
            if line.bot_id == bot.pk:
                found.append((ladder, line))
    return found


def get_ladder(game: str, seats: int) -> Ladder | None:
    return find_ladder(game, seats)
