"""The federations' records in the admin, read only like every model there: a write in the
admin would skip the history and the checks the services make (docs/DESIGN.md, "The admin")."""

from __future__ import annotations

from django.contrib import admin

from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationDirty,
    FederationOpen,
    FederationOrganiser,
    FederationRating,
    FederationRatingEvent,
    FederationSeason,
    FederationSeasonDirty,
    FederationSeasonResult,
    FederationSeasonStanding,
    FederationState,
    Person,
    PersonLink,
    PublishedLine,
    PublishedList,
    RatedTournament,
)
from games.admin import ReadOnlyAdmin


@admin.register(Federation)
class FederationAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug", "visibility", "counts", "created_at"]
    search_fields = ["name", "slug"]
    list_filter = ["visibility", "counts"]


@admin.register(FederationOrganiser)
class FederationOrganiserAdmin(ReadOnlyAdmin):
    list_display = ["federation", "user", "created_at"]
    search_fields = ["federation__name", "user__username"]


@admin.register(FederationClub)
class FederationClubAdmin(ReadOnlyAdmin):
    list_display = ["federation", "club", "state", "counts_from", "joined_at", "ended_at"]
    search_fields = ["federation__name", "club__name"]
    list_filter = ["state"]


@admin.register(Person)
class PersonAdmin(ReadOnlyAdmin):
    list_display = ["federation", "number", "name", "home_club", "merged_into"]
    search_fields = ["name", "federation__name"]


@admin.register(PersonLink)
class PersonLinkAdmin(ReadOnlyAdmin):
    list_display = ["federation", "person", "player", "club", "state", "created_at"]
    search_fields = ["person__name", "player__name", "club__name"]
    list_filter = ["state"]


@admin.register(FederationChange)
class FederationChangeAdmin(ReadOnlyAdmin):
    list_display = ["federation", "action", "club", "user_name", "created_at"]
    search_fields = ["federation__name", "user_name"]
    list_filter = ["action"]


@admin.register(RatedTournament)
class RatedTournamentAdmin(ReadOnlyAdmin):
    list_display = ["federation", "tournament", "created_at"]
    search_fields = ["federation__name", "tournament__name"]


@admin.register(FederationOpen)
class FederationOpenAdmin(ReadOnlyAdmin):
    list_display = ["federation", "tournament", "self_entry", "entries_close", "created_at"]
    search_fields = ["federation__name", "tournament__name"]


@admin.register(FederationRatingEvent)
class FederationRatingEventAdmin(ReadOnlyAdmin):
    list_display = ["federation", "family", "game", "player", "who", "played_at", "mu", "sigma"]
    list_filter = ["family"]
    search_fields = ["federation__name", "player__name"]


@admin.register(FederationRating)
class FederationRatingAdmin(ReadOnlyAdmin):
    list_display = ["federation", "family", "person", "mu", "sigma", "games", "last_played"]
    list_filter = ["family"]
    search_fields = ["federation__name", "person__name"]


@admin.register(FederationDirty)
class FederationDirtyAdmin(ReadOnlyAdmin):
    list_display = ["federation", "family", "since_at", "since_game", "created_at"]


@admin.register(FederationState)
class FederationStateAdmin(ReadOnlyAdmin):
    list_display = ["federation", "as_of", "failures", "failed_at", "lease_until"]


@admin.register(PublishedList)
class PublishedListAdmin(ReadOnlyAdmin):
    list_display = ["federation", "family", "month", "published_at"]
    list_filter = ["family", "month"]


@admin.register(PublishedLine)
class PublishedLineAdmin(ReadOnlyAdmin):
    list_display = ["published", "rank", "name", "rating", "games", "provisional", "inactive"]
    search_fields = ["name"]


@admin.register(FederationSeason)
class FederationSeasonAdmin(ReadOnlyAdmin):
    list_display = ["name", "federation", "starts", "ends", "computed_at"]
    search_fields = ["name", "federation__name"]


@admin.register(FederationSeasonStanding)
class FederationSeasonStandingAdmin(ReadOnlyAdmin):
    list_display = ["season", "family", "rank", "person", "points", "ranked"]
    search_fields = ["season__name", "person__name"]


@admin.register(FederationSeasonResult)
class FederationSeasonResultAdmin(ReadOnlyAdmin):
    list_display = ["season", "person", "tournament", "date", "place", "exact_points"]
    search_fields = ["season__name", "person__name"]


@admin.register(FederationSeasonDirty)
class FederationSeasonDirtyAdmin(ReadOnlyAdmin):
    list_display = ["season", "federation", "created_at"]
