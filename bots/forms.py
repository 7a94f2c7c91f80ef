"""Forms of the bots app."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bots.models import Bot


class BotCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=100, widget=forms.TextInput(attrs={"placeholder": "GreedyBot"})
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

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give your bot a name."))
        if Bot.objects.filter(owner=self.owner, name=name).exists():
            raise forms.ValidationError(_("You already have a bot with this name."))
        return name
