"""The ladder as JSON (public, read-only): ``GET /api/ladder/`` and
``GET /api/ladder/<game>/<seats>/`` (docs/bot-api.md "Ladder")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bots.ladder.selectors import get_ladder, ladder_json, ladder_list


class LadderListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ladder_list", summary="The ladders that run (public)", responses={200: dict}
    )
    def get(self, request: Request) -> Response:
        return Response(ladder_list())


class LadderDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ladder_detail",
        summary="One ladder, best first: rank range, skill ± interval, games, state (public)",
        responses={200: dict},
    )
    def get(self, request: Request, game: str, seats: int) -> Response:
        ladder = get_ladder(game, seats)
        if ladder is None:
            body: dict[str, Any] = {
                "code": "unknown_ladder",
                "detail": f"no ladder of {game!r} at {seats} seats runs",
            }
            return Response(body, status=404)
        return Response(ladder_json(ladder))
