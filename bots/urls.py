from __future__ import annotations

from django.urls import path

from bots import views

app_name = "bots"

urlpatterns = [
    path("", views.bot_list, name="list"),
]
