"""REST for external bots (the session or the user's DRF token authenticates these, not a bot
token): create one and get its first token, make a new token, revoke it.

- ``POST /api/bot/account/`` ``{"name", "game", "description"?}`` → 201 ``{"id", "name",
  "game", "kind", "token"}``
- ``POST /api/bot/account/<id>/token`` → 201 ``{"token"}`` (the old one stops working)
- ``DELETE /api/bot/account/<id>/token`` → 204
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from bots.external.services import external_bot_create, external_disconnect_all
from bots.external.tokens import token_issue, token_revoke
from bots.models import Bot, game_choices


class ExternalBotCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    game = serializers.ChoiceField(choices=game_choices())


class ExternalBotCreatedSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    kind = serializers.CharField()
    token = serializers.CharField(help_text="The bot token: shown only in this answer.")


class ExternalBotTokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="The new bot token: shown only in this answer.")


def _user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated runs first
    return user


class ExternalBotCreateView(APIView):
    permission_classes = [IsAuthenticated]
    creation_kind = "bots"  # games.throttles.CreationThrottle

    @extend_schema(
        summary="Create an external bot (played over the bot API) and get its token",
        request=ExternalBotCreateSerializer,
        responses={201: ExternalBotCreatedSerializer},
    )
    def post(self, request: Request) -> Response:
        body = ExternalBotCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        owner = _user(request)
        if Bot.objects.filter(owner=owner, name=body.validated_data["name"]).exists():
            raise ValidationError({"name": ["You already have a bot with this name."]})
        try:
            bot = external_bot_create(owner=owner, **body.validated_data)
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc
        data = {"id": bot.pk, "name": bot.name, "game": bot.game, "kind": bot.kind}
        return Response(data | {"token": token_issue(bot=bot)}, status=status.HTTP_201_CREATED)


class ExternalBotTokenView(APIView):
    permission_classes = [IsAuthenticated]

    def _bot(self, request: Request, bot_id: int) -> Bot:
        return get_object_or_404(Bot, pk=bot_id, owner=_user(request), kind=Bot.Kind.EXTERNAL)

    @extend_schema(
        summary="Make a new token for an external bot (the old one stops working)",
        request=None,
        responses={201: ExternalBotTokenSerializer},
    )
    def post(self, request: Request, bot_id: int) -> Response:
        bot = self._bot(request, bot_id)
        token = token_issue(bot=bot)
        external_disconnect_all(bot_id=bot.pk)
        return Response({"token": token}, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Revoke an external bot's token", responses={204: None})
    def delete(self, request: Request, bot_id: int) -> Response:
        bot = self._bot(request, bot_id)
        token_revoke(bot=bot)
        external_disconnect_all(bot_id=bot.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
