"""Admin: every club, member, player, game and hand, to look up and search.

The admin reads; it does not write recorded data. A hand, a game's result, a member's role or a
player's name changed here would skip what the site's services do with every change (re-score
the game, keep the history, mark the club's ratings and seasons for the worker), so derived
numbers would disagree with the record afterwards. Those changes are made on the site's pages.
What the admin may do goes through the services: revoking an invite link or an API token.
Secrets (edit tokens, invite tokens, token digests) are never shown.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.models import (
    ApiToken,
    Change,
    Club,
    ClubChange,
    Game,
    Hand,
    IdempotentRequest,
    Invite,
    Membership,
    Player,
    RateCount,
    Result,
    Score,
    Seat,
)
from games.services.clubs import invite_revoke
from games.services.tokens import token_revoke


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Looked at, searched and filtered; never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "visibility", "created_at")
    list_filter = ("visibility", "created_at")
    search_fields = ("name", "slug")


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("club", "user", "role", "created_at")
    list_filter = ("role", "club")
    search_fields = ("club__name", "club__slug", "user__username")
    list_select_related = ("club", "user")


@admin.register(Invite)
class InviteAdmin(ReadOnlyAdmin):
    list_display = ("id", "club", "created_by", "created_at", "expires_at", "revoked_at", "uses")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter), "club")
    search_fields = ("club__name", "club__slug", "created_by__username")
    list_select_related = ("club", "created_by")
    exclude = ("token",)
    actions = ("revoke",)

    @admin.action(description=_("Revoke the selected invite links"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[Invite]) -> None:
        for invite in queryset:
            invite_revoke(invite=invite)
        messages.success(request, _("Invite links revoked."))


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "owner", "user", "merged_into", "created_at")
    list_filter = (("club", admin.RelatedOnlyFieldListFilter), ("merged_into", admin.EmptyFieldListFilter))
    search_fields = ("name", "key", "club__name", "owner__username", "user__username")
    list_select_related = ("club", "owner", "user", "merged_into")


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = readonly_fields = ("position", "name", "player")


class HandInline(ReadOnlyInline):
    model = Hand
    fields = readonly_fields = ("number", "outcome", "version", "created_at", "updated_at")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("public_id", "family", "club", "owner", "ended", "deleted_at", "updated_at")
    list_filter = ("family", "ended", ("deleted_at", admin.EmptyFieldListFilter), "club")
    search_fields = ("public_id", "seats__name", "owner__username", "club__name", "event_name")
    list_select_related = ("club", "owner")
    exclude = ("edit_token",)
    inlines = (SeatInline, HandInline)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("game", "position", "name", "player")
    search_fields = ("name", "game__public_id", "player__name")
    list_select_related = ("game", "player")


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "version", "created_at", "updated_at")
    list_filter = ("game__family", "created_at")
    search_fields = ("game__public_id",)
    list_select_related = ("game",)


@admin.register(Score)
class ScoreAdmin(ReadOnlyAdmin):
    list_display = ("hand", "seat", "points")
    search_fields = ("hand__game__public_id", "seat__name")
    list_filter = ("hand__game__family",)
    list_select_related = ("hand", "seat")


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = ("game", "player", "total", "place", "winner", "finished", "hands")
    list_filter = ("winner", "finished", "game__family")
    search_fields = ("game__public_id", "player__name")
    list_select_related = ("game", "player")


@admin.register(Change)
class ChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "action", "hand_number", "user", "created_at")
    list_filter = ("action", "created_at")
    search_fields = ("game__public_id", "user__username")
    list_select_related = ("game", "user")


@admin.register(ClubChange)
class ClubChangeAdmin(ReadOnlyAdmin):
    list_display = ("club", "action", "user", "created_at")
    list_filter = ("action", "club", "created_at")
    search_fields = ("club__name", "club__slug", "user__username")
    list_select_related = ("club", "user")


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    list_display = ("prefix", "name", "user", "scope", "created_at", "last_used_at", "revoked_at")
    list_filter = ("scope", ("revoked_at", admin.EmptyFieldListFilter))
    search_fields = ("prefix", "name", "user__username")
    list_select_related = ("user",)
    exclude = ("digest",)
    actions = ("revoke",)

    @admin.action(description=_("Revoke the selected API tokens"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        for token in queryset:
            token_revoke(token=token)
        messages.success(request, _("API tokens revoked."))


@admin.register(RateCount)
class RateCountAdmin(ReadOnlyAdmin):
    """A client's count in its current window: deleting it lifts the limit at once."""

    list_display = ("key", "window", "count")
    search_fields = ("key",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)


@admin.register(IdempotentRequest)
class IdempotentRequestAdmin(ReadOnlyAdmin):
    list_display = ("key", "scope", "created_at")
    list_filter = ("created_at",)
    search_fields = ("key", "scope")
