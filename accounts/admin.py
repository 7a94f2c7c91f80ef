from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin[User]):
    list_display = (
        "username",
        "display_name",
        "email",
        "is_staff",
        "is_active",
        "date_joined",
        "last_login",
    )
    list_filter = ("is_staff", "is_superuser", "is_active", "groups", "date_joined")
    search_fields = ("username", "display_name", "email", "first_name", "last_name")
    ordering = ("-date_joined",)
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (_("Arena"), {"fields": ("display_name",)}),
    )

    # Every user may enter the admin for their own bots (bots.admin); users are staff business:
    # hidden and closed to a user who is not staff, not even through autocomplete.
    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_staff) and super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff) and super().has_view_permission(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_staff) and super().has_add_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff) and super().has_delete_permission(request, obj)
