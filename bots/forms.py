"""Forms of the bots app."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bots.models import DEFAULT_GAME, Bot, game_choices
from games.display import games_count


class BotCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=100, widget=forms.TextInput(attrs={"placeholder": "GreedyBot"})
    )
    game = forms.ChoiceField(
        label=_("Game"),
        choices=game_choices,
        initial=DEFAULT_GAME,
        required=False,  # a form without the field (older clients) creates a Tiến Lên bot
        help_text=_("A bot plays one game; it cannot be changed later."),
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
    )

    def __init__(self, *args: Any, owner: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner

    def clean_game(self) -> str:
        return str(self.cleaned_data.get("game") or DEFAULT_GAME)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give your bot a name."))
        if Bot.objects.filter(owner=self.owner, name=name).exists():
            raise forms.ValidationError(_("You already have a bot with this name."))
        return name


SESSION_LENGTHS = (16, 32)


class ArenaForm(forms.Form):
    """Bot Arena: 2–4 players — at least one bot version, the others house AIs — and a session
    of 16 or 32 games."""

    name = forms.CharField(label=_("Table name"), max_length=80, required=False)
    bots = forms.MultipleChoiceField(
        label=_("Bots"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Your ready versions, and bots other players opened to the arena."),
    )
    house = forms.MultipleChoiceField(
        label=_("House AIs (rating anchors)"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_(
            "House AIs play at a fixed rating, so a bot measured against them is rated even "
            "when it is your only bot."
        ),
    )
    session_length = forms.TypedChoiceField(
        label=_("Session length"),
        coerce=int,
        choices=[(n, games_count(n)) for n in SESSION_LENGTHS],
        initial=16,
    )
    public = forms.BooleanField(
        label=_("Public (listed in the lobby)"), required=False, initial=True
    )

    def __init__(
        self,
        *args: Any,
        choices: list[tuple[str, str]],
        levels: Sequence[tuple[str, Any]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["bots"].choices = choices  # type: ignore[attr-defined]
        self.fields["house"].choices = list(levels)  # type: ignore[attr-defined]
        self.fields["bots"].error_messages["invalid_choice"] = _(
            "%(value)s is not one of the listed bots: an arena seats ready Tiến Lên bots "
            "(yours, or ones opened to the arena)."
        )

    def clean_bots(self) -> list[int]:
        return [int(v) for v in self.cleaned_data["bots"]]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players = len(data.get("bots") or []) + len(data.get("house") or [])
        if "bots" in data and not 2 <= players <= 4:
            raise forms.ValidationError(
                _("Choose 2 to 4 players in all (bots and house AIs), at least one bot."),
                code="bad_seats",
            )
        return data


class PracticeBotForm(forms.Form):
    """Practice with your bot: it plays house AIs, with you at the table or watching."""

    version = forms.TypedChoiceField(label=_("Your bot"), coerce=int)
    watch = forms.BooleanField(
        label=_("Only watch (your bot against three house AIs)"), required=False
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["version"].choices = choices  # type: ignore[attr-defined]
        self.fields["version"].error_messages["invalid_choice"] = _(
            "Choose one of your ready Tiến Lên bot versions (practice tables play Tiến Lên)."
        )
