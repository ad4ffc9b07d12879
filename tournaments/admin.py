"""Admin: every tournament, round, table, season, standing and rating, to look up and search.

Read-only, as in games/admin.py: a tournament's rounds and results, a season's settings and the
derived numbers (standings, ratings) change through the site's services, which keep the history
and mark what depends on them for the worker. The worker's own bookkeeping (what is still marked,
how each club's numbers stand) is shown as it is; its failed tries are under the task results.
"""

from django.contrib import admin

from games.admin import ReadOnlyAdmin
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


@admin.register(DerivedState)
class DerivedStateAdmin(ReadOnlyAdmin):
    list_display = ("club", "as_of", "failures", "failed_at", "last_error")
    list_filter = ("failures",)
    search_fields = ("club__name", "club__slug")
    ordering = ("-failures", "club__slug")


@admin.register(RatingDirty)
class RatingDirtyAdmin(ReadOnlyAdmin):
    list_display = ("club", "family", "since_at", "since_game", "created_at")
    list_filter = ("family",)
    search_fields = ("club__name", "club__slug")


@admin.register(SeasonDirty)
class SeasonDirtyAdmin(ReadOnlyAdmin):
    list_display = ("club", "season", "created_at")
    search_fields = ("club__name", "season__name")
