"""Forms of the games app: Create Table, Join by link, Practice."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.display import game_label, games_count
from games.engine.registry import GAMES
from games.models import (
    MAX_SEATS,
    MIN_SEATS,
    SESSION_LENGTHS,
    SPECTATOR_HANDS_LIVE,
    SPECTATOR_HANDS_NEVER,
    Table,
    game_seat_range,
    game_table_options,
)

#: House AI strengths offered until the services publish their own list.
DEFAULT_HOUSE_LEVELS: tuple[tuple[str, Any], ...] = (
    ("easy", _("Easy")),
    ("medium", _("Medium")),
    ("hard", _("Hard")),
    ("expert", _("Expert")),
)
OPEN_SEAT = "open"
MIXED_LEVEL = "mixed"
HOUSE_PREFIX = "house:"
BOT_PREFIX = "bot:"

#: Seam for the bots app: a callable ``(user) -> [(value "bot:<version id>", label), ...]``
#: listing the bot versions the user may seat (``games.extensions.bot_seat_choices``: their own
#: and others' bots opened to everyone). The view passes it in; none shows no bots group.
BotChoices = Callable[[Any], Sequence[tuple[str, str]]]


def option_label(game: str, key: str) -> Any:
    """The label of game ``game``'s table option ``key`` in the active language: its engine's
    ``table_option_labels`` entry (English, translated by the catalog), else its name.

    >>> option_label("no-such-game", "buy_in")
    'Buy in'
    """
    engine = GAMES.get(game)
    label = engine.table_option_labels.get(key) if engine is not None else None
    return _(label) if label else key.replace("_", " ").capitalize()


def option_value_label(game: str, key: str, value: str) -> Any:
    """The label of value ``value`` of game ``game``'s word option ``key`` in the active
    language: its engine's ``table_option_value_labels`` entry (English, translated by the
    catalog), else the word with spaces.

    >>> option_value_label("no-such-game", "rotation", "winner_becomes_a")
    'winner becomes a'
    """
    engine = GAMES.get(game)
    labels = engine.table_option_value_labels.get(key, {}) if engine is not None else {}
    label = labels.get(value)
    return _(label) if label else value.replace("_", " ")


def game_title(name: str) -> str:
    """The readable title of game ``name`` (its engine's ``title``) in the active language;
    an unknown game shows its name.

    >>> game_title("no-such-game")
    'no-such-game'
    """
    return game_label(name)


def game_choices() -> list[tuple[str, str]]:
    """Every game in the engine registry, with a readable title."""
    return [(name, game_title(name)) for name in GAMES]


def seat_choices(
    house_levels: Sequence[tuple[str, Any]], bot_choices: Sequence[tuple[str, str]] = ()
) -> list[Any]:
    choices: list[Any] = [(OPEN_SEAT, _("Person — open seat, joins by link"))]
    choices.append(
        (
            _("House AI"),
            [
                (f"{HOUSE_PREFIX}{value}", _("House AI · %s") % label)
                for value, label in house_levels
            ],
        )
    )
    if bot_choices:
        choices.append((_("Bots (yours, and others' bots opened to everyone)"), list(bot_choices)))
    return choices


def parse_seat(value: str) -> dict[str, Any]:
    """``"open"`` → ``{"kind": "empty"}``; ``"house:hard"`` → ``{"kind": "house", "level": ...}``;
    ``"bot:12"`` → ``{"kind": "bot", "bot_version": 12}``."""
    if value.startswith(HOUSE_PREFIX):
        return {"kind": "house", "level": value[len(HOUSE_PREFIX) :]}
    if value.startswith(BOT_PREFIX):
        return {"kind": "bot", "bot_version": int(value[len(BOT_PREFIX) :])}
    return {"kind": "empty"}


class TableCreateForm(forms.Form):
    name = forms.CharField(label=_("Table name"), max_length=80)
    game = forms.ChoiceField(label=_("Game"))
    seats = forms.TypedChoiceField(
        label=_("Seats"),
        coerce=int,
        choices=[(n, str(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        initial=4,
    )
    seat_1 = forms.ChoiceField(label=_("Seat 2"), required=False)
    seat_2 = forms.ChoiceField(label=_("Seat 3"), required=False)
    seat_3 = forms.ChoiceField(label=_("Seat 4"), required=False)
    seat_4 = forms.ChoiceField(label=_("Seat 5"), required=False)
    seat_5 = forms.ChoiceField(label=_("Seat 6"), required=False)
    seat_6 = forms.ChoiceField(label=_("Seat 7"), required=False)
    visibility = forms.ChoiceField(
        label=_("Who can see it"),
        choices=Table.Visibility.choices,
        initial=Table.Visibility.PUBLIC,
        widget=forms.RadioSelect,
    )
    session_length = forms.TypedChoiceField(
        label=_("Session length"),
        coerce=int,
        choices=[(n, games_count(n)) for n in SESSION_LENGTHS],
        initial=16,
    )
    turn_seconds = forms.IntegerField(
        label=_("Turn timer (seconds)"), min_value=5, max_value=300, initial=30
    )
    hide_hand_counts = forms.BooleanField(
        label=_("Hide hand counts"),
        required=False,
        help_text=_("Opponents' card counts stay hidden until the game ends."),
    )
    play_on_after_winner = forms.BooleanField(
        label=_("Play on after the winner"),
        required=False,
        help_text=_("The others keep playing for 2nd, 3rd and 4th place."),
    )
    spectator_hands = forms.ChoiceField(
        label=_("Spectators may see every hand"),
        choices=[
            (SPECTATOR_HANDS_NEVER, _("Never")),
            (SPECTATOR_HANDS_LIVE, _("Live, if they choose to (to learn by watching)")),
        ],
        initial=SPECTATOR_HANDS_NEVER,
        required=False,
        help_text=_(
            "Players always see only their own hand. Rated games never show the hands live: "
            "their watchers see them one game behind."
        ),
    )

    #: One field per seat after the host's, up to ``MAX_SEATS`` (stud's 7).
    SEAT_FIELDS = ("seat_1", "seat_2", "seat_3", "seat_4", "seat_5", "seat_6")

    def __init__(
        self,
        *args: Any,
        house_levels: Sequence[tuple[str, Any]] = DEFAULT_HOUSE_LEVELS,
        bot_choices: Sequence[tuple[str, str]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()  # type: ignore[attr-defined]
        self.fields["game"].initial = next(iter(GAMES))
        choices = seat_choices(house_levels, bot_choices)
        default = f"{HOUSE_PREFIX}{house_levels[0][0]}" if house_levels else OPEN_SEAT
        for index, field in enumerate(self.SEAT_FIELDS):
            self.fields[field].choices = choices  # type: ignore[attr-defined]
            self.fields[field].initial = OPEN_SEAT if index == 0 else default
            self.fields[field].error_messages["invalid_choice"] = _(
                "Choose one of the listed seats (a bot must be a ready version of your own "
                "bot, or of a bot its owner opened to others, for this table's game)."
            )
        # each game's own options (shown for the chosen game only; see game_option_groups)
        self.game_option_names: dict[str, list[str]] = {}
        for game in GAMES:
            names = self.game_option_names.setdefault(game, [])
            for key, initial in game_table_options(game).items():
                names.append(key)
                if key in self.fields:
                    continue
                label = option_label(game, key)
                allowed = GAMES[game].table_option_choices.get(key)
                if isinstance(initial, bool):
                    self.fields[key] = forms.BooleanField(
                        label=label, required=False, initial=initial
                    )
                elif allowed:  # a word option: the engine's allowed values
                    self.fields[key] = forms.TypedChoiceField(
                        label=label,
                        required=False,
                        empty_value=None,
                        initial=initial,
                        choices=[(c, option_value_label(game, key, c)) for c in allowed],
                    )
                else:
                    self.fields[key] = forms.IntegerField(
                        label=label, required=False, min_value=0, initial=initial
                    )

    def game_option_groups(self) -> list[tuple[str, list[Any], list[Any], bool]]:
        """``(game, [bound fields], [advanced bound fields], advanced has errors)`` of every
        game with options of its own: the advanced ones are those the engine lists in
        ``advanced_table_options`` (the page folds them under "Advanced", open when one of
        them has an error)."""
        groups = []
        for game, names in self.game_option_names.items():
            if not names:
                continue
            advanced = set(GAMES[game].advanced_table_options)
            rare = [self[k] for k in names if k in advanced]
            groups.append(
                (
                    game,
                    [self[k] for k in names if k not in advanced],
                    rare,
                    any(field.errors for field in rare),
                )
            )
        return groups

    def game_seat_ranges(self) -> dict[str, list[int]]:
        """The seat counts each game allows (for the page's script)."""
        return {name: list(game_seat_range(name)) for name in GAMES}

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give the table a name."))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats = data.get("seats")
        game = data.get("game")
        if isinstance(seats, int) and game in GAMES:
            low, high = game_seat_range(game)
            if not low <= seats <= high:
                self.add_error(
                    "seats",
                    _("%(game)s is played by %(low)d to %(high)d players.")
                    % {"game": game_title(game), "low": low, "high": high},
                )
        if isinstance(seats, int):
            used = self.SEAT_FIELDS[: seats - 1]
            for field in used:
                if not data.get(field):
                    self.add_error(field, _("Choose who sits here."))
        return data

    def seat_specs(self) -> list[dict[str, Any]]:
        """Seat 0 is the host; then one spec per extra seat (see :func:`parse_seat`)."""
        seats = int(self.cleaned_data["seats"])
        specs: list[dict[str, Any]] = [{"kind": "human"}]
        for field in self.SEAT_FIELDS[: seats - 1]:
            specs.append(parse_seat(self.cleaned_data[field]))
        return specs

    def table_options(self) -> dict[str, Any]:
        d = self.cleaned_data
        options: dict[str, Any] = {
            "seats": int(d["seats"]),
            "session_length": int(d["session_length"]),
            "turn_seconds": int(d["turn_seconds"]),
        }
        if d.get("spectator_hands") == SPECTATOR_HANDS_LIVE:
            options["spectator_hands"] = SPECTATOR_HANDS_LIVE
        for key, default in game_table_options(d["game"]).items():  # the chosen game's own
            value = d.get(key)
            if isinstance(default, bool):
                options[key] = bool(value)
            else:
                options[key] = default if value is None else value
        return options


CODE_RE = re.compile(r"^[A-Za-z0-9_-]{4,16}$")
LINK_RE = re.compile(r"/(?:t|tables)/([A-Za-z0-9_-]{4,16})/?(?:[?#].*)?$")


def extract_table_code(text: str) -> str | None:
    """The table code in ``text``: a bare code or a full link to ``/t/<code>/``.

    >>> extract_table_code("https://example.com/t/Ab3_xY-z/")
    'Ab3_xY-z'
    >>> extract_table_code("  Ab3_xY-z ")
    'Ab3_xY-z'
    >>> extract_table_code("https://example.com/how-to-play/") is None
    True
    """
    text = text.strip()
    if CODE_RE.match(text):
        return text
    match = LINK_RE.search(text)
    return match.group(1) if match else None


class JoinForm(forms.Form):
    link = forms.CharField(
        label=_("Table code or link"),
        max_length=300,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. https://…/t/Ab3xY9kQ/ or Ab3xY9kQ")}),
    )

    def clean_link(self) -> str:
        code = extract_table_code(self.cleaned_data["link"])
        if code is None:
            raise forms.ValidationError(_("That is not a table code or a table link."))
        return code


class PracticeForm(forms.Form):
    level = forms.ChoiceField(label=_("House AI strength"))

    def __init__(
        self,
        *args: Any,
        house_levels: Sequence[tuple[str, Any]] = DEFAULT_HOUSE_LEVELS,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        choices = [*house_levels, (MIXED_LEVEL, _("Mixed: easy, medium and hard"))]
        self.fields["level"].choices = choices  # type: ignore[attr-defined]
        if house_levels:
            self.fields["level"].initial = house_levels[min(1, len(house_levels) - 1)][0]
