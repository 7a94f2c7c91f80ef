"""REST endpoints of the bots app: ``/api/bots/`` (the caller's own bots)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import ValidationError

from accounts.models import User
from bots.models import MAX_CODE_LENGTH, Bot
from bots.selectors import bot_list
from bots.services import bot_create, bot_update


class BotSerializer(serializers.ModelSerializer[Bot]):
    latest_version = serializers.IntegerField(read_only=True, allow_null=True)
    code = serializers.CharField(
        write_only=True,
        required=False,
        max_length=MAX_CODE_LENGTH,
        trim_whitespace=False,
        help_text="JavaScript source; saving it adds a new version.",
    )

    class Meta:
        model = Bot
        fields = ("id", "name", "description", "latest_version", "code", "created_at", "updated_at")
        read_only_fields = ("id", "latest_version", "created_at", "updated_at")

    def validate_name(self, value: str) -> str:
        owner = self.context["request"].user
        clash = Bot.objects.filter(owner=owner, name=value)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError("You already have a bot with this name.")
        return value


class BotViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[Bot],
):
    """Your bots. Other users' bots are invisible here (404)."""

    serializer_class = BotSerializer

    def _owner(self) -> User:
        user = self.request.user
        assert isinstance(user, User)  # IsAuthenticated runs first
        return user

    def get_queryset(self) -> QuerySet[Bot]:
        return bot_list(owner=self._owner())

    def perform_create(self, serializer: serializers.BaseSerializer[Bot]) -> None:
        data: dict[str, Any] = dict(serializer.validated_data)
        try:
            serializer.instance = bot_create(owner=self._owner(), **data)
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc
        serializer.instance = self.get_queryset().get(pk=serializer.instance.pk)

    def perform_update(self, serializer: serializers.BaseSerializer[Bot]) -> None:
        data: dict[str, Any] = dict(serializer.validated_data)
        assert serializer.instance is not None
        try:
            bot = bot_update(bot=serializer.instance, **data)
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc
        serializer.instance = self.get_queryset().get(pk=bot.pk)
