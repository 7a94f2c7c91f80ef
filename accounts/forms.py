"""Sign-up form for the custom user model."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class SignUpForm(UserCreationForm[User]):
    """Username, email, optional display name and a password checked by the validators."""

    email = forms.EmailField(
        label=_("Email"),
        max_length=254,
        help_text=_("Used only to recover your account."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email", "display_name")

    def clean_email(self) -> str:
        email: str = User.objects.normalize_email(self.cleaned_data["email"])
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this email already exists. Log in instead?"),
                code="duplicate_email",
            )
        return email
