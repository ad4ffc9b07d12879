"""The tokens resources of the API (see games/api/urls.py)."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
