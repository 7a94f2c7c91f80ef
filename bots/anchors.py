"""House AIs as fixed anchor players of the bot ratings, and when an arena session is rated.

A house AI seated at a rated table is an **anchor**: it takes part in the rating update with a
fixed skill (below) that games never change, so a user bot that beats it gains and one that
loses to it drops, and a user alone (one bot and some house AIs) reaches the leaderboard. The
anchors are listed on the leaderboard beside the bots, marked as house AIs.

The fixed skills (``games.skill``, shared with people's ratings) are on openskill's scale (a
new bot starts at mu 25, sigma 25/3). They order the levels as measured on
duplicate deals (docs/ai.md): easy < medium < hard < expert. Their sigma is
small (an anchor's skill is taken as known), so the conservative display of an anchor (``mu −
3σ``) is what a bot of equal strength reaches after many games.

Pure Python (no Django): the ratings service and the pages ask here.

>>> anchor_skill("hard")
(28.0, 1.0)
>>> anchor_skill("nope") is None
True
>>> rating_status(bots=[7, 7], anchors=[]).code
'one_bot'
>>> rating_status(bots=[7], anchors=["hard"]).rated
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.skill import ANCHOR_SKILLS, anchor_skill

__all__ = ["ANCHOR_SKILLS", "RatingStatus", "anchor_skill", "rating_status"]


@dataclass(frozen=True)
class RatingStatus:
    """Whether a session with these participants is rated, and if not, why (``code``)."""

    rated: bool
    code: str


def rating_status(*, bots: Sequence[int], anchors: Sequence[str | None]) -> RatingStatus:
    """Whether an arena session seating the user bots ``bots`` (bot ids, one per bot seat:
    versions of one bot share its id) and house AIs of levels ``anchors`` is rated.

    Rated when at least one user bot plays and there are at least two rated participants: each
    distinct user bot counts once (its versions are one bot, rated as a whole), each house AI
    with an anchor counts. Codes when unrated: ``no_bot`` (only house AIs), ``one_bot`` (one
    bot, possibly several of its versions, and no house AI to measure it against).

    >>> rating_status(bots=[1, 2], anchors=[]).rated
    True
    >>> rating_status(bots=[], anchors=["easy", "hard"]).code
    'no_bot'
    """
    distinct = set(bots)
    anchored = [a for a in anchors if anchor_skill(a) is not None]
    if not distinct:
        return RatingStatus(False, "no_bot")
    if len(distinct) + len(anchored) < 2:
        return RatingStatus(False, "one_bot")
    return RatingStatus(True, "rated")
