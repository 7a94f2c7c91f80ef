"""Bot Arena helpers for the pages: the house AIs offered as anchors, whether a session is
rated and why not, and the anchors' rows on the leaderboard (:mod:`bots.anchors` has the
rules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bots.anchors import ANCHOR_SKILLS, RatingStatus, anchor_skill, rating_status
from bots.models import RATING_BASE, RATING_SCALE, BotVersion, display_rating
from bots.selectors import ARENA_GAME
from games.engine.registry import find_game

__all__ = [
    "AnchorRow",
    "anchor_rows",
    "arena_house_levels",
    "arena_rating_status",
    "arena_table_notes",
    "skill_band",
    "unrated_reason",
]

#: Labels of the house AI levels (the translation catalogue has them).
LEVEL_LABELS: dict[str, Any] = {
    "easy": gettext_lazy("Easy"),
    "medium": gettext_lazy("Medium"),
    "hard": gettext_lazy("Hard"),
    "expert": gettext_lazy("Expert"),
}


def level_label(level: str) -> str:
    label = LEVEL_LABELS.get(level)
    return str(label) if label is not None else level.capitalize()


def arena_house_levels(game: str = ARENA_GAME) -> list[tuple[str, str]]:
    """``(level, label)`` of the house AIs an arena of ``game`` may seat: the game's levels
    that have an anchor skill."""
    return [
        (level, level_label(level))
        for level in find_game(game).house_levels
        if anchor_skill(level) is not None
    ]


def arena_rating_status(*, version_ids: Sequence[int], house_levels: Sequence[str]) -> RatingStatus:
    """Whether an arena seating these versions and house AIs is rated (see
    :func:`bots.anchors.rating_status`; versions of one bot count as one bot)."""
    bot_of = dict(BotVersion.objects.filter(pk__in=list(version_ids)).values_list("pk", "bot_id"))
    return rating_status(
        bots=[bot_of[v] for v in version_ids if v in bot_of], anchors=list(house_levels)
    )


def unrated_reason(code: str) -> str:
    """Why an arena session is not rated, in the reader's language."""
    if code == "one_bot":
        return _(
            "This session is unrated: only one bot plays (versions of one bot are rated as one "
            "bot, not against each other). Add a house AI or another player's open bot to rate it."
        )
    if code == "no_bot":
        return _("This session is unrated: no user bot plays.")
    return _("This session is unrated.")


def skill_band(mu: float, sigma: float) -> tuple[int, int]:
    """``(estimate, ±)`` of a skill on the display scale: the estimate ``mu`` and a 95% band
    (1.96σ). The shown rating (:func:`bots.models.display_rating`) is the cautious
    ``estimate − 3σ``.

    >>> skill_band(25.0, 25.0 / 3)
    (2100, 392)
    """
    return round(RATING_BASE + RATING_SCALE * mu), round(RATING_SCALE * 1.96 * sigma)


@dataclass(frozen=True)
class AnchorRow:
    level: str
    label: str
    display: int
    estimate: int
    band: int


def anchor_rows(game: str = ARENA_GAME) -> list[AnchorRow]:
    """The house AI anchors of ``game`` as leaderboard rows, weakest first."""
    rows = []
    for level, label in arena_house_levels(game):
        mu, sigma = ANCHOR_SKILLS[level]
        estimate, band = skill_band(mu, sigma)
        rows.append(AnchorRow(level, label, display_rating(mu, sigma), estimate, band))
    return rows


def arena_table_notes(*, table: Any, seats: Sequence[Any]) -> list[str]:
    """The table page's note for an arena table that is not rated: why (``games.extensions``
    table-notes hook)."""
    if getattr(table, "mode", None) != "arena":
        return []
    status = rating_status(
        bots=[s.bot_version.bot_id for s in seats if s.kind == "bot" and s.bot_version_id],
        anchors=[s.house_level for s in seats if s.kind == "house"],
    )
    return [] if status.rated else [unrated_reason(status.code)]
