"""Admin: how each club's derived numbers stand (when last complete, failed tries, what is
still marked). Read-only: the worker writes these; the failed tries themselves are under the
task results."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import DerivedState, RatingDirty, SeasonDirty


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(DerivedState)
class DerivedStateAdmin(ReadOnly):
    list_display = ("club", "as_of", "failures", "failed_at", "last_error")
    list_filter = ("failures",)
    ordering = ("-failures", "club__slug")


@admin.register(RatingDirty)
class RatingDirtyAdmin(ReadOnly):
    list_display = ("club", "family", "since_at", "since_game", "created_at")


@admin.register(SeasonDirty)
class SeasonDirtyAdmin(ReadOnly):
    list_display = ("club", "season", "created_at")
