"""The rating model shared by bots and people, and house AIs as its fixed anchors.

A house AI seated at a rated table is an **anchor**: it takes part in the rating update with a
fixed skill that games never change. The fixed skills are on openskill's scale (a newcomer
starts at mu 25, sigma 25/3) and order the levels as measured on duplicate deals (docs/ai.md):
easy < medium < hard < expert. Pure Python (no Django); ``bots.anchors`` re-exports these.

>>> anchor_skill("hard")
(28.0, 1.0)
>>> anchor_skill("nope") is None
True
>>> nearest_level(26.9, ("easy", "medium", "hard"))
'hard'
>>> nearest_level(10.0, ("easy", "medium", "hard"))
'easy'
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

__all__ = [
    "ANCHOR_SKILLS",
    "RATING_BASE",
    "RATING_MODEL",
    "RATING_SCALE",
    "RATING_Z",
    "anchor_skill",
    "display_rating",
    "nearest_level",
    "skill_band",
]

#: Display scale of a rating, bots' and people's alike: ``RATING_BASE + RATING_SCALE * (mu -
#: RATING_Z * sigma)`` (a newcomer shows 1500).
RATING_BASE = 1500.0
RATING_SCALE = 24.0
RATING_Z = 3.0

#: Multi-player TrueSkill-style model (openskill, Weng–Lin Plackett–Luce); defaults mu 25,
#: sigma 25/3.
RATING_MODEL = PlackettLuce()

#: ``level → (mu, sigma)`` of each house AI level as a rating anchor.
ANCHOR_SKILLS: dict[str, tuple[float, float]] = {
    "easy": (20.0, 1.0),
    "medium": (25.0, 1.0),
    "hard": (28.0, 1.0),
    "expert": (31.0, 1.0),
}


def anchor_skill(level: str | None) -> tuple[float, float] | None:
    """The fixed ``(mu, sigma)`` of house AI ``level``; None for a level without an anchor."""
    if level is None:
        return None
    return ANCHOR_SKILLS.get(level)


def nearest_level(mu: float, levels: Sequence[str]) -> str:
    """The level among ``levels`` (a game's house levels) whose anchor mu is nearest ``mu``
    (the weaker on a tie); ``levels[0]`` when none has an anchor."""
    anchored = [lv for lv in levels if lv in ANCHOR_SKILLS]
    if not anchored:
        return levels[0]
    return min(anchored, key=lambda lv: (abs(ANCHOR_SKILLS[lv][0] - mu), ANCHOR_SKILLS[lv][0]))


def display_rating(mu: float, sigma: float) -> int:
    """The shown rating: the conservative estimate (mu − 3σ), scaled.

    >>> display_rating(25.0, 25.0 / 3)
    1500
    """
    return round(RATING_BASE + RATING_SCALE * (mu - RATING_Z * sigma))


def skill_band(mu: float, sigma: float) -> tuple[int, int]:
    """``(estimate, ±)`` on the display scale: the estimate ``mu`` and its 95% band (1.96σ).

    >>> skill_band(25.0, 25.0 / 3)
    (2100, 392)
    """
    return round(RATING_BASE + RATING_SCALE * mu), round(RATING_SCALE * 1.96 * sigma)
