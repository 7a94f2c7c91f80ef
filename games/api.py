"""REST endpoints of the games app: ``/api/tables/`` (public tables, read-only) and
``/api/games/<id>/bot-moves/`` (the Replay lab: a bot owner's moves, owner-only)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.history.bot_lab import bot_moves
from games.history.records import HistoryError
from games.models import Game, Table
from games.selectors import table_list_public


class TableSerializer(serializers.ModelSerializer[Table]):
    owner = serializers.CharField(source="owner.username", read_only=True)
    filled_seats = serializers.IntegerField(read_only=True)
    seat_count = serializers.IntegerField(read_only=True)
    mode = serializers.CharField(read_only=True)

    class Meta:
        model = Table
        fields = (
            "code",
            "name",
            "game",
            "owner",
            "status",
            "mode",
            "seat_count",
            "filled_seats",
            "created_at",
        )
        read_only_fields = fields


class TableViewSet(viewsets.ReadOnlyModelViewSet[Table]):
    """Public tables that are open or playing. Anyone may read them."""

    serializer_class = TableSerializer
    permission_classes = [permissions.AllowAny]
    lookup_field = "code"

    def get_queryset(self) -> QuerySet[Table]:
        return table_list_public()


class BotMoveSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text="The action's number (1 = the first move).")
    step = serializers.IntegerField(help_text="The replay step after this move (= seq).")
    seat = serializers.IntegerField()
    bot_id = serializers.IntegerField(allow_null=True)
    bot_version = serializers.IntegerField(
        allow_null=True, help_text="The version number that played."
    )
    game_state = serializers.JSONField(
        help_text="The exact gameState the bot received (its own seat's view), recomputed."
    )
    returned = serializers.JSONField(allow_null=True, help_text="What getNextMove returned.")
    ok = serializers.BooleanField(allow_null=True, help_text="The sandbox produced a return.")
    error_code = serializers.CharField(allow_null=True)
    error_message = serializers.CharField(allow_null=True)
    console = serializers.ListField(child=serializers.CharField(), allow_null=True)
    console_truncated = serializers.BooleanField(allow_null=True)
    elapsed_ms = serializers.FloatField(allow_null=True)
    restarted = serializers.BooleanField(allow_null=True)
    move = serializers.JSONField(
        allow_null=True, help_text="The action applied (an auto-pass after a strike)."
    )
    strike = serializers.CharField(
        allow_null=True, help_text="The strike reason (timeout, illegal:<code>…), or null."
    )
    strikes = serializers.IntegerField(allow_null=True)
    disqualified = serializers.BooleanField(allow_null=True)


class BotSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    bot_id = serializers.IntegerField(allow_null=True)
    bot_version = serializers.IntegerField(allow_null=True)


class BotMovesSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    engine = serializers.CharField()
    seats = BotSeatSerializer(many=True, help_text="The seats your bots held.")
    moves = BotMoveSerializer(many=True)


class LabErrorSerializer(serializers.Serializer[Any]):
    error = serializers.CharField(help_text="not_found, not_finished or deal_in_play")
    detail = serializers.CharField()


class GameBotMovesView(APIView):
    """``GET /api/games/<id>/bot-moves/``: the Replay lab's data (docs/history.md)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Your bots' moves in a finished game, with the exact gameState of each",
        description="For the owner of a bot that held a seat: every move of that bot with the "
        "gameState it received (recomputed from the seed and the actions: the bot's own seat "
        "view), what it returned, its console output, its time and any strike. Only your own "
        "bots' seats; anyone else (and a game that does not exist) gets 404 not_found; a game "
        "still being played gets 409 not_finished; a finished game whose deal is still played "
        "elsewhere (an arena set, a tournament round) 409 deal_in_play.",
        responses={200: BotMovesSerializer, 404: LabErrorSerializer, 409: LabErrorSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = Game.objects.select_related("table").filter(pk=pk).first()
        try:
            data = bot_moves(game=game, user=request.user)  # type: ignore[arg-type]
        except HistoryError as exc:
            code = 409 if exc.code in ("not_finished", "deal_in_play") else 404
            return Response({"error": exc.code, "detail": exc.detail}, status=code)
        response = Response(data)
        response["Cache-Control"] = "private, no-store"
        return response


class InviteSerializer(serializers.Serializer[Any]):
    url = serializers.CharField(help_text="The link that seats whoever opens it, signed in.")
    token = serializers.CharField(help_text="The link's unguessable token (32 characters).")
    created_at = serializers.DateTimeField()


class TableErrorSerializer(serializers.Serializer[Any]):
    error = serializers.CharField(help_text="not_found, not_host, not_private or bad_state")
    detail = serializers.CharField()


class TableInviteView(APIView):
    """``/api/tables/<code>/invite/``: the host's invite link of a private table."""

    permission_classes = [permissions.IsAuthenticated]

    def _table(self, code: str) -> Table | None:
        return Table.objects.filter(code=code).first()

    @staticmethod
    def _error(exc: services.TableError) -> Response:
        status = {"not_host": 403, "login_required": 401}.get(exc.code, 409)
        return Response({"error": exc.code, "detail": exc.detail}, status=status)

    @extend_schema(
        summary="Get or make the invite link of your private table",
        description="For the host of a private table whose session is not over: the table's "
        "live invite link, made now if it has none (201) or the existing one (200). Opening "
        "the link signed in takes an empty seat (docs/protocol.md#invite-links). "
        "404 not_found (no table), 403 not_host, 409 not_private or bad_state (the session "
        "is over).",
        request=None,
        responses={200: InviteSerializer, 201: InviteSerializer, 403: TableErrorSerializer},
    )
    def post(self, request: Request, code: str) -> Response:
        table = self._table(code)
        if table is None:
            return Response({"error": "not_found", "detail": "no such table"}, status=404)
        had = table.invites.filter(revoked_at__isnull=True).exists()
        try:
            invite = services.invite_create(table_id=table.pk, user=request.user)  # type: ignore[arg-type]
        except services.TableError as exc:
            return self._error(exc)
        url = request.build_absolute_uri(reverse("tables:invite", args=[invite.token]))
        body = {"url": url, "token": invite.token, "created_at": invite.created_at}
        return Response(InviteSerializer(body).data, status=200 if had else 201)

    @extend_schema(
        summary="Revoke the invite link of your table",
        description="The host revokes the live invite link: opening it then answers 410 with "
        '"this invite link was revoked". 204 whether or not there was one; 404 not_found, '
        "403 not_host. POST again to make a new link.",
        request=None,
        responses={204: None, 403: TableErrorSerializer},
    )
    def delete(self, request: Request, code: str) -> Response:
        table = self._table(code)
        if table is None:
            return Response({"error": "not_found", "detail": "no such table"}, status=404)
        try:
            services.invite_revoke(table_id=table.pk, user=request.user)  # type: ignore[arg-type]
        except services.TableError as exc:
            return self._error(exc)
        return Response(status=204)
