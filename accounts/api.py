"""REST endpoint for the current user: ``/api/me/``."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User


class MeSerializer(serializers.ModelSerializer[User]):
    class Meta:
        model = User
        fields = ("id", "username", "display_name", "email", "date_joined")
        read_only_fields = fields


class MeView(APIView):
    """The authenticated user."""

    serializer_class = MeSerializer

    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)  # IsAuthenticated runs first
        return Response(MeSerializer(request.user).data)
