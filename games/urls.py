from __future__ import annotations

from django.urls import path

from games import views

app_name = "tables"

urlpatterns = [
    path("new/", views.table_create, name="create"),
    path("practice/", views.table_practice, name="practice"),
    path("join/", views.table_join, name="join"),
    path("<str:code>/", views.table_detail, name="detail"),
]
