from __future__ import annotations

from django.urls import path

from games import views

app_name = "tables"

urlpatterns = [
    path("new/", views.table_create, name="create"),
]
