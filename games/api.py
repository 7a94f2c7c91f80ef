"""REST endpoints of the games app: ``/api/tables/`` (public tables, read-only)."""

from __future__ import annotations

from django.db.models import QuerySet
from rest_framework import permissions, serializers, viewsets

from games.models import Table
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
