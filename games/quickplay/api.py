"""``/api/quickplay/``: join, leave and watch the quick-play pool (docs/quickplay.md "REST")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.quickplay import services
from games.quickplay.views import client_address

#: HTTP status of each refusal code.
ERROR_STATUS = {
    "unknown_game": 400,
    "bad_seats": 400,
    "already_waiting": 409,
    "already_playing": 409,
}


class JoinSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(help_text="A game name: tienlen, stud, diu …")
    seats = serializers.IntegerField(help_text="Seats at the table, within the game's range.")


class StatusSerializer(serializers.Serializer[Any]):
    state = serializers.CharField(help_text="idle | waiting | seated")
    pools = serializers.DictField(
        child=serializers.IntegerField(), help_text='People waiting per "<game>/<seats>".'
    )
    game = serializers.CharField(required=False)
    seats = serializers.IntegerField(required=False)
    waited = serializers.FloatField(required=False, help_text="Seconds in the pool.")
    fill_in = serializers.FloatField(
        required=False, help_text="Seconds until house AIs fill the empty seats."
    )
    waiting = serializers.IntegerField(required=False, help_text="People in your pool.")
    table = serializers.CharField(required=False, help_text="The table's code (seated).")
    url = serializers.CharField(required=False, help_text="The table's page (seated).")


class ErrorSerializer(serializers.Serializer[Any]):
    error = serializers.CharField()
    detail = serializers.CharField()


def _error(exc: services.QuickPlayError) -> Response:
    return Response(
        {"error": exc.code, "detail": exc.detail}, status=ERROR_STATUS.get(exc.code, 400)
    )


class QuickPlayView(APIView):
    """``GET`` your state and the pools' sizes; ``POST`` join a pool; ``DELETE`` leave it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Your quick-play state", responses={200: StatusSerializer})
    def get(self, request: Request) -> Response:
        response = Response(services.pool_status(user=request.user))
        response["Cache-Control"] = "private, no-store"
        return response

    @extend_schema(
        summary="Join the quick-play pool of a game and seat count",
        request=JoinSerializer,
        responses={201: StatusSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        data = JoinSerializer(data=request.data)
        if not data.is_valid():
            return Response(
                {"error": "bad_request", "detail": "game (text) and seats (number) are needed"},
                status=400,
            )
        try:
            services.pool_join(
                user=request.user,  # type: ignore[arg-type]
                game=data.validated_data["game"],
                seats=data.validated_data["seats"],
                address=client_address(request),
            )
        except services.QuickPlayError as exc:
            return _error(exc)
        return Response(services.pool_status(user=request.user), status=201)

    @extend_schema(summary="Leave the quick-play pool", responses={204: None})
    def delete(self, request: Request) -> Response:
        services.pool_leave(user=request.user)  # type: ignore[arg-type]
        return Response(status=204)
