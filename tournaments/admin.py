"""Admin: every tournament, round, table (and its players' answers), season, standing and rating,
to look up and search.

Read-only, as in games/admin.py: a tournament's rounds and results, a season's settings and the
derived numbers (standings, ratings) change through the site's services, which keep the history
and mark what depends on them for the worker. The worker's own bookkeeping (what is still marked,
how each club's numbers stand: current, updating, stuck or failing) is shown as it is; its failed
tries are under the task results.
"""

import datetime
from typing import Any, cast

from django.contrib import admin
from django.db.models import F, Min, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce, Least
from django.http import HttpRequest
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.admin import ReadOnlyAdmin
from tournaments.derived import is_stuck, whole_within
from tournaments.models import (
    Bye,
    CurrentRating,
    DerivedState,
    Entry,
    RatingDirty,
    RatingEvent,
    Round,
    Season,
    SeasonDirty,
    SeasonStanding,
    Table,
    TableAnswer,
    TableSeat,
    Tournament,
    TournamentChange,
)


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "date", "family", "rounds", "seating", "points", "updated_at")
    list_filter = ("family", "seating", "points", "date", "club")
    search_fields = ("name", "public_id", "club__name", "club__slug")
    list_select_related = ("club",)


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "player", "checked_in", "from_round", "dropped_after")
    list_filter = ("checked_in",)
    search_fields = ("tournament__name", "player__name")
    list_select_related = ("tournament", "player")


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "status", "started_at", "confirmed_at")
    list_filter = ("status",)
    search_fields = ("tournament__name", "tournament__public_id")
    list_select_related = ("tournament",)


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("round", "number", "game")
    search_fields = ("round__tournament__name", "game__public_id")
    list_select_related = ("round__tournament", "game")


@admin.register(TableSeat)
class TableSeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "position", "entry")
    search_fields = ("table__round__tournament__name", "entry__player__name")
    list_select_related = ("table__round__tournament", "entry__player")


@admin.register(TableAnswer)
class TableAnswerAdmin(ReadOnlyAdmin):
    list_display = ("table", "entry", "disputed", "word", "answered_at")
    list_filter = ("disputed",)
    search_fields = ("table__round__tournament__name", "entry__player__name", "word")
    list_select_related = ("table__round__tournament", "entry__player")


@admin.register(Bye)
class ByeAdmin(ReadOnlyAdmin):
    list_display = ("round", "entry")
    search_fields = ("round__tournament__name", "entry__player__name")
    list_select_related = ("round__tournament", "entry__player")


@admin.register(TournamentChange)
class TournamentChangeAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "action", "user", "created_at")
    list_filter = ("action", "created_at")
    search_fields = ("tournament__name", "user__username")
    list_select_related = ("tournament", "user")


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "starts", "ends", "counts", "computed_at")
    list_filter = ("counts", "game_points", "tournament_points", "club")
    search_fields = ("name", "public_id", "club__name", "club__slug")
    list_select_related = ("club",)


@admin.register(SeasonStanding)
class SeasonStandingAdmin(ReadOnlyAdmin):
    list_display = ("season", "family", "rank", "player", "points", "games", "wins", "ranked")
    list_filter = ("ranked", "family")
    search_fields = ("season__name", "player__name")
    list_select_related = ("season", "player")


@admin.register(RatingEvent)
class RatingEventAdmin(ReadOnlyAdmin):
    list_display = ("player", "family", "game", "played_at", "place", "players", "mu", "sigma")
    list_filter = ("family", "club")
    search_fields = ("player__name", "game__public_id", "club__name")
    list_select_related = ("player", "game")


@admin.register(CurrentRating)
class CurrentRatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "family", "mu", "sigma", "games", "last_played", "evening")
    list_filter = ("family", "club")
    search_fields = ("player__name", "club__name")
    list_select_related = ("player",)


def _first_mark(model: type[RatingDirty] | type[SeasonDirty]) -> Subquery:
    return Subquery(
        model.objects.filter(club_id=OuterRef("club_id"))
        .order_by()
        .values("club_id")
        .annotate(first=Min("created_at"))
        .values("first")[:1]
    )


class DerivedCondition(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("stuck", gettext("stuck")),
            ("failing", gettext("failing")),
            ("updating", gettext("updating")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        now = timezone.now()
        if self.value() == "stuck":
            return queryset.filter(pending_since__lt=now - whole_within()).exclude(lease_until__gt=now)
        if self.value() == "failing":
            return queryset.filter(failures__gt=0)
        if self.value() == "updating":
            return queryset.filter(pending_since__isnull=False)
        return queryset


@admin.register(DerivedState)
class DerivedStateAdmin(ReadOnlyAdmin):
    """Each club's derived numbers: current, updating, stuck (changes waiting longer than a dead
    worker's job takes to be taken up again, and no job alive at them) or failing, with since
    when; the clubs waiting longest first."""

    list_display = (
        "club",
        "state",
        "pending_since",
        "as_of",
        "failures",
        "failed_at",
        "lease_until",
        "last_error",
    )
    list_filter = (DerivedCondition, "failures")
    search_fields = ("club__name", "club__slug")
    list_select_related = ("club",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[DerivedState]:
        ratings, seasons = _first_mark(RatingDirty), _first_mark(SeasonDirty)
        return (
            super()
            .get_queryset(request)
            .annotate(pending_since=Least(Coalesce(ratings, seasons), Coalesce(seasons, ratings)))
            .order_by(F("pending_since").asc(nulls_last=True), "-failures", "club__slug")
        )

    @admin.display(description=_("pending since"), ordering="pending_since")
    def pending_since(self, state: Any) -> datetime.datetime | None:
        return cast(datetime.datetime | None, state.pending_since)

    @admin.display(description=_("state"))
    def state(self, state: Any) -> str:
        now = timezone.now()
        since: datetime.datetime | None = state.pending_since
        alive = state.lease_until is not None and state.lease_until > now
        if since is not None and is_stuck(since, alive, now):
            return gettext("stuck for %(age)s") % {"age": timesince(since, now)}
        if state.failures:
            return gettext("failing (tries in a row: %(count)d)") % {"count": state.failures}
        return gettext("updating") if since is not None else gettext("current")


@admin.register(RatingDirty)
class RatingDirtyAdmin(ReadOnlyAdmin):
    list_display = ("club", "family", "since_at", "since_game", "created_at")
    list_filter = ("family",)
    search_fields = ("club__name", "club__slug")


@admin.register(SeasonDirty)
class SeasonDirtyAdmin(ReadOnlyAdmin):
    list_display = ("club", "season", "created_at")
    search_fields = ("club__name", "season__name")
