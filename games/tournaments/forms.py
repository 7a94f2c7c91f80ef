"""The Create Tournament form, and the Edit form of its creator until the start."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import clock
from games.engine.registry import GAMES
from games.forms import game_title
from games.tournaments.models import MAX_GAMES_PER_ROUND, MAX_ROUNDS, Tournament


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=_("Tournament name"), max_length=80)
    game = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(
        label=_("Format"), choices=Tournament.Format.choices, initial=Tournament.Format.SWISS
    )
    visibility = forms.ChoiceField(
        label=_("Who can see it"),
        choices=Tournament.Visibility.choices,
        initial=Tournament.Visibility.PUBLIC,
    )
    start_at = forms.DateTimeField(
        label=_("Start time (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Round 1 starts then; each later round starts after a break."),
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=3)
    table_size = forms.IntegerField(label=_("Players per table"), min_value=2, initial=4)
    games_per_round = forms.IntegerField(
        label=_("Games per round"), min_value=1, max_value=MAX_GAMES_PER_ROUND, initial=2
    )
    turn_seconds = forms.IntegerField(
        label=_("Turn timer (seconds)"), min_value=5, max_value=300, initial=30
    )
    round_gap_seconds = forms.IntegerField(
        label=_("Break between rounds (seconds)"), min_value=0, max_value=86400, initial=60
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "game" in self.fields:
            game: Any = self.fields["game"]
            game.choices = [(name, game_title(name)) for name in GAMES]
        start = clock.now_datetime() + timedelta(minutes=10)
        self.fields["start_at"].initial = start.astimezone(UTC).replace(
            second=0, microsecond=0, tzinfo=None
        )

    def clean_start_at(self) -> Any:
        value = self.cleaned_data["start_at"]
        if timezone.is_naive(value):
            value = timezone.make_aware(value, UTC)
        return value


class TournamentEditForm(TournamentCreateForm):
    """What the creator may change until the start (``services.EDITABLE``): name, visibility,
    start time, rounds, games per round. The game, format, table size and timers stay."""

    game = None  # type: ignore[assignment]
    format = None  # type: ignore[assignment]
    table_size = None  # type: ignore[assignment]
    turn_seconds = None  # type: ignore[assignment]
    round_gap_seconds = None  # type: ignore[assignment]

    @classmethod
    def of(cls, t: Tournament) -> TournamentEditForm:
        """The form filled in with ``t``'s settings (the start time in UTC)."""
        return cls(
            initial={
                "name": t.name,
                "visibility": t.visibility,
                "start_at": t.start_at.astimezone(UTC).replace(
                    second=0, microsecond=0, tzinfo=None
                ),
                "rounds": t.rounds,
                "games_per_round": t.games_per_round,
            }
        )
