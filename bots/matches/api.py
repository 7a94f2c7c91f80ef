"""REST API of duplicate matches: ``/api/matches/`` (create, list, get, stop), owner-only.

Errors answer ``{"code": <stable code>, "detail": <translated text>}``: 400 for bad input,
404 ``no_such_match`` for a match that is not yours (or none), 409 ``match_not_running``,
429 ``matches_in_flight``. The match page (static/js/bot_match.js) polls ``GET`` here.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from bots.matches.services import (
    MAX_DEALS,
    MatchError,
    match_create,
    match_get,
    match_list,
    match_stop,
)
from bots.models import Match
from games.engine.registry import GAMES

ERROR_STATUS = {
    "no_such_match": status.HTTP_404_NOT_FOUND,
    "match_not_running": status.HTTP_409_CONFLICT,
    "matches_in_flight": status.HTTP_429_TOO_MANY_REQUESTS,
    # an external bot that cannot be seated now (bots.seating)
    "bot_offline": status.HTTP_409_CONFLICT,
    "bot_busy": status.HTTP_409_CONFLICT,
    "bot_share_full": status.HTTP_409_CONFLICT,
}


class EntrantSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["version", "house"])
    version_id = serializers.IntegerField(required=False, help_text="kind version: its id")
    level = serializers.CharField(required=False, help_text="kind house: easy, medium, hard…")
    label = serializers.CharField(read_only=True)  # type: ignore[assignment]


class MatchCreateSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(
        max_length=20, help_text="The engine's name: " + ", ".join(sorted(GAMES)) + "."
    )
    entrants = serializers.ListField(
        child=serializers.JSONField(),
        help_text="The field, one entrant per seat; the first is the one evaluated: "
        '{"kind": "version", "version_id": 12} or {"kind": "house", "level": "hard"}.',
    )
    deals = serializers.IntegerField(min_value=1, max_value=MAX_DEALS)
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    stop_when_separated = serializers.BooleanField(default=False)


class MatchSerializer(serializers.ModelSerializer[Match]):
    entrants = EntrantSerializer(many=True, read_only=True)
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()
    report = serializers.JSONField(
        read_only=True,
        help_text="games.engine.duplicate's report: per entrant games, first_rate, first_ci, "
        "mean_points, points_ci, last_rate, strikes, mean_move_ms… (intervals: 95 %, deals "
        "are the unit).",
    )
    series = serializers.JSONField(
        read_only=True, help_text="The running estimate: one point per deal played."
    )

    class Meta:
        model = Match
        fields = (
            "id",
            "game",
            "entrants",
            "deals",
            "seed",
            "stop_when_separated",
            "status",
            "deals_done",
            "stop_requested",
            "error",
            "report",
            "series",
            "created_at",
            "started_at",
            "finished_at",
            "url",
            "page",
        )
        read_only_fields = fields

    def get_url(self, obj: Match) -> str:
        return reverse("api:match-detail", args=[obj.pk])

    def get_page(self, obj: Match) -> str:
        return reverse("bots:match", args=[obj.pk])


class MatchErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    detail = serializers.CharField()


def _refused(exc: MatchError) -> Response:
    return Response(
        {"code": exc.code, "detail": exc.message},
        status=ERROR_STATUS.get(exc.code, status.HTTP_400_BAD_REQUEST),
    )


class MatchViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Match],
):
    """Your duplicate-deal matches (docs/bot-lab.md). Other users' matches are 404."""

    serializer_class = MatchSerializer
    creation_kind = "matches"  # games.throttles.CreationThrottle

    def _owner(self) -> User:
        user = self.request.user
        assert isinstance(user, User)  # IsAuthenticated runs first
        return user

    def get_queryset(self) -> QuerySet[Match]:
        if getattr(self, "swagger_fake_view", False):
            return Match.objects.none()
        qs: QuerySet[Match] = match_list(owner=self._owner())
        return qs

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            match = match_get(owner=self._owner(), match_id=kwargs.get("pk"))
        except MatchError as exc:
            return _refused(exc)
        return Response(MatchSerializer(match).data)

    @extend_schema(
        summary="Start a match: queued for a lab worker",
        request=MatchCreateSerializer,
        responses={201: MatchSerializer, 400: MatchErrorSerializer, 429: MatchErrorSerializer},
    )
    def create(self, request: Request) -> Response:
        body = MatchCreateSerializer(data=request.data)
        if not body.is_valid():
            field = next(iter(body.errors))
            return Response(
                {"code": f"bad_{field}", "detail": str(body.errors[field][0])},
                status=status.HTTP_400_BAD_REQUEST,
            )
        data = body.validated_data
        try:
            match = match_create(owner=self._owner(), **data)
        except MatchError as exc:
            return _refused(exc)
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Stop a match (a running one after its current game)",
        request=None,
        responses={200: MatchSerializer, 404: MatchErrorSerializer, 409: MatchErrorSerializer},
    )
    @action(detail=True, methods=["post"])
    def stop(self, request: Request, pk: str | None = None) -> Response:
        try:
            match = match_stop(owner=self._owner(), match_id=pk)
        except MatchError as exc:
            return _refused(exc)
        return Response(MatchSerializer(match).data)
