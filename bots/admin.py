"""Bot admin, scoped: every signed-in user manages only their own bots (and their versions);
superusers see everything. A user who is not staff sees Bots and Bot versions and nothing else
(config/urls.py lets every active user into the admin; every other ModelAdmin is staff-only)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import ForeignKey, Q, QuerySet
from django.forms import ModelChoiceField, ModelForm
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from accounts.models import User
from bots.matches.services import MatchError, bot_promote, botversion_check_promotable
from bots.models import Bot, BotRating, BotRatingEvent, BotVersion
from bots.services import bot_create, bot_set_arena_open, botversion_create

M = TypeVar("M", bound=models.Model)


def _sees_all(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_superuser)


def _is_staff(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_staff)


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # the admin requires an authenticated, active user
    return user


class OwnerScopedAdmin(admin.ModelAdmin[M]):
    """Querysets, objects and permissions limited to the requesting user's bots.

    Another user's bot is reported as missing (404), never shown or changed. Staff keep their
    model permissions; a user who is not staff may view, add and change their own rows when
    ``for_owners`` is set, and delete nothing here (My Bots deletes a bot: the admin's
    confirmation page would list the seats at other users' tables that pin its versions).
    """

    owner_lookup = "owner"
    for_owners = False

    def owner_id_of(self, obj: M) -> int:
        raise NotImplementedError

    def get_queryset(self, request: HttpRequest) -> QuerySet[M]:
        qs = super().get_queryset(request)
        if _sees_all(request):
            return qs
        return qs.filter(**{self.owner_lookup: _user(request)})

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> M | None:
        obj = super().get_object(request, object_id, from_field)
        if obj is None and not _sees_all(request):
            raise Http404("No such bot.")
        return obj

    def _owns(self, request: HttpRequest, obj: M | None) -> bool:
        return obj is None or _sees_all(request) or self.owner_id_of(obj) == request.user.pk

    def _owner_may(self, request: HttpRequest) -> bool:
        return self.for_owners and bool(request.user.is_active)

    def has_module_permission(self, request: HttpRequest) -> bool:
        if _is_staff(request):
            return super().has_module_permission(request)
        return self._owner_may(request)

    def has_view_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        if _is_staff(request):
            allowed = super().has_view_permission(request, obj)
        else:
            allowed = self._owner_may(request)
        return allowed and self._owns(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        if _is_staff(request):
            return super().has_add_permission(request)
        return self._owner_may(request)

    def has_change_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        if _is_staff(request):
            allowed = super().has_change_permission(request, obj)
        else:
            allowed = self._owner_may(request)
        return allowed and self._owns(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        if not _is_staff(request):
            return False
        return super().has_delete_permission(request, obj) and self._owns(request, obj)

    def get_list_filter(self, request: HttpRequest) -> Any:
        # the owner is always the requesting user, so an owner filter tells nothing
        filters = super().get_list_filter(request)
        if _sees_all(request):
            return filters
        return tuple(f for f in filters if _filter_field(f) not in ("owner", "bot__owner"))

    def get_list_display(self, request: HttpRequest) -> Any:
        fields = super().get_list_display(request)
        return fields if _sees_all(request) else tuple(f for f in fields if f != "owner")


def _filter_field(spec: Any) -> Any:
    return spec[0] if isinstance(spec, tuple) else spec


@admin.register(Bot)
class BotAdmin(OwnerScopedAdmin[Bot]):
    for_owners = True
    list_display = ("name", "game", "owner", "arena_open", "created_at", "updated_at")
    list_filter = (
        ("owner", admin.RelatedOnlyFieldListFilter),
        "game",
        "arena_open",
        "created_at",
    )
    search_fields = ("name", "description", "owner__username")
    # kind is chosen when the bot is made (an external bot in My Bots: bots/external/)
    readonly_fields = ("kind", "created_at", "updated_at")
    raw_id_fields = ("owner",)

    def get_form(
        self, request: HttpRequest, obj: Bot | None = None, change: bool = False, **kwargs: Any
    ) -> type[ModelForm[Bot]]:
        form = super().get_form(request, obj, change, **kwargs)
        if not _sees_all(request):
            form = _own_bot_form(form, _user(request))
        if "promoted_version" in form.base_fields:
            form = promote_form(form, obj)
        if "game" in form.base_fields:  # left out of a post: the model default (Tiến Lên)
            form.base_fields["game"].required = False
        return form

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if db_field.name == "promoted_version":
            # never another user's version (get_form narrows it to this bot's ready ones)
            versions = BotVersion.objects.select_related("bot").defer("code", "validation")
            if not _sees_all(request):
                versions = versions.filter(bot__owner=_user(request))
            kwargs["queryset"] = versions
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Bot | None = None) -> Any:
        # a bot plays the game it was created for: its versions were validated for it
        fields = tuple(super().get_readonly_fields(request, obj))
        return (*fields, "game") if obj is not None else fields

    def owner_id_of(self, obj: Bot) -> int:
        return obj.owner_id

    def get_exclude(self, request: HttpRequest, obj: Bot | None = None) -> Any:
        return () if _sees_all(request) else ("owner",)

    def save_model(
        self, request: HttpRequest, obj: Bot, form: ModelForm[Bot], change: bool
    ) -> None:
        if not _sees_all(request):
            if change and obj.owner_id != request.user.pk:
                raise Http404("No such bot.")
            obj.owner = _user(request)
        if change:
            super().save_model(request, obj, form, change)
            if "promoted_version" in form.changed_data:  # the site's Promote, under its lock
                version = obj.promoted_version
                bot_promote(bot=obj, number=version.number if version is not None else None)
            return
        # a new slot is made by the service My Bots uses
        created = bot_create(
            owner=obj.owner, name=obj.name, description=obj.description, game=obj.game
        )
        if obj.arena_open:
            bot_set_arena_open(bot=created, open_=True)
        obj.pk = created.pk
        obj.created_at, obj.updated_at = created.created_at, created.updated_at


def _own_bot_form(form: type[ModelForm[Bot]], owner: User) -> type[ModelForm[Bot]]:
    """The bot form for a user who is not shown the owner field: the bot is theirs, and a
    name they already use is a form error (the unique constraint skips excluded fields)."""

    class OwnBotForm(form):  # type: ignore[valid-type,misc]
        def clean_name(self) -> str:
            name: str = self.cleaned_data["name"]
            taken = Bot.objects.filter(owner=owner, name=name)
            if self.instance.pk is not None:
                taken = taken.exclude(pk=self.instance.pk)
            if taken.exists():
                raise ValidationError(_("You already have a bot with this name."))
            return name

    return OwnBotForm


def promote_form(form: type[ModelForm[Bot]], bot: Bot | None) -> type[ModelForm[Bot]]:
    """The bot form whose "Promoted version" offers only ``bot``'s own ready versions (and the
    one promoted now), and checks a choice with the rule of the site's Promote
    (:func:`bots.matches.services.botversion_check_promotable`: its own, ready)."""

    class PromoteForm(form):  # type: ignore[valid-type,misc]
        def clean_promoted_version(self) -> BotVersion | None:
            version: BotVersion | None = self.cleaned_data.get("promoted_version")
            if version is None or bot is None or version.pk == bot.promoted_version_id:
                return version
            try:
                botversion_check_promotable(bot=bot, version=version)
            except MatchError as exc:
                raise ValidationError(exc.message, code=exc.code) from exc
            return version

    # (a subclass builds its model fields afresh: narrow the subclass's own field)
    field: Any = PromoteForm.base_fields["promoted_version"]
    if bot is None:  # a new bot has no versions yet
        field.queryset = field.queryset.none()
    else:
        field.queryset = field.queryset.filter(bot=bot).filter(
            Q(status=BotVersion.Status.READY) | Q(pk=bot.promoted_version_id)
        )
    return PromoteForm


@admin.register(BotVersion)
class BotVersionAdmin(OwnerScopedAdmin[BotVersion]):
    """Versions are added here as in the editor (``botversion_create``: next number, validation
    game enqueued) and never edited once saved."""

    for_owners = True
    owner_lookup = "bot__owner"
    list_display = ("bot", "number", "status", "created_at")
    list_filter = ("status", ("bot", admin.RelatedOnlyFieldListFilter), "created_at")
    search_fields = ("bot__name", "bot__owner__username")
    list_select_related = ("bot",)

    def owner_id_of(self, obj: BotVersion) -> int:
        return obj.bot.owner_id

    def get_readonly_fields(self, request: HttpRequest, obj: BotVersion | None = None) -> Any:
        fields = ["number", "created_at"]
        if obj is not None:  # versions are immutable once saved
            fields += ["bot", "code"]
        if not _sees_all(request):
            fields += ["status", "validation"]
        return fields

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if db_field.name == "bot" and not _sees_all(request):
            kwargs["queryset"] = Bot.objects.filter(owner=_user(request))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(
        self, request: HttpRequest, obj: BotVersion, form: ModelForm[BotVersion], change: bool
    ) -> None:
        if not _sees_all(request) and obj.bot.owner_id != request.user.pk:
            raise Http404("No such bot.")
        if change:
            super().save_model(request, obj, form, change)
            return
        created = botversion_create(bot=obj.bot, code=obj.code)
        obj.pk, obj.number, obj.status = created.pk, created.number, created.status
        obj.created_at = created.created_at


class _ReadOnlyRatingAdmin(OwnerScopedAdmin[M]):
    """Ratings are computed from arena games (``bots.ratings.ratings_record_game``): viewable,
    never added or edited by hand (a superuser may delete, e.g. to reset a bot)."""

    owner_lookup = "bot__owner"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return _sees_all(request) and super().has_delete_permission(request, obj)


@admin.register(BotRating)
class BotRatingAdmin(_ReadOnlyRatingAdmin[BotRating]):
    list_display = ("bot", "display", "mu", "sigma", "games", "wins", "last_played_at")
    list_select_related = ("bot",)
    search_fields = ("bot__name", "bot__owner__username")
    ordering = ("-ordinal",)

    def owner_id_of(self, obj: BotRating) -> int:
        return obj.bot.owner_id


@admin.register(BotRatingEvent)
class BotRatingEventAdmin(_ReadOnlyRatingAdmin[BotRatingEvent]):
    list_display = ("bot", "game_id", "version", "rank", "rated_bots", "won", "played_at")
    list_filter = ("won", "played_at")
    list_select_related = ("bot", "version")
    search_fields = ("bot__name", "bot__owner__username")

    def owner_id_of(self, obj: BotRatingEvent) -> int:
        return obj.bot.owner_id


# Duplicate matches (bots/matches/) have their admin beside their model.
import bots.matches.admin  # noqa: E402, F401
