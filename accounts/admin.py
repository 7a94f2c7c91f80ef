from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.admin import StaffOnlyAdmin


@admin.register(User)
class UserAdmin(StaffOnlyAdmin[User], DjangoUserAdmin[User]):
    """Users are staff business: hidden and closed to a user who is not staff, not even through
    autocomplete (every user may enter the admin for their own bots, bots.admin)."""

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
