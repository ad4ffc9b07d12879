"""Admin: organisers can look up any game, its seats, hands and history.

Hands are changed through the site (which re-scores and keeps the history), so their
outcomes are read-only here.
"""

from django.contrib import admin

from games.models import Change, Game, Hand, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    can_delete = False
    readonly_fields = ("number", "outcome", "version", "created_at", "updated_at")
    fields = readonly_fields


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("public_id", "family", "owner", "ended", "updated_at")
    list_filter = ("family", "ended")
    search_fields = ("public_id", "seats__name", "owner__username")
    readonly_fields = ("public_id", "edit_token", "next_hand_number", "created_at", "updated_at")
    inlines = (SeatInline, HandInline)


@admin.register(Change)
class ChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "action", "hand_number", "user", "created_at")
    list_filter = ("action",)
    readonly_fields = ("game", "hand_number", "action", "before", "after", "user", "undoes", "created_at")
