"""Club tournaments: settings, the players registered, rounds, their tables and byes, and the
history of every change.

What is recorded: the settings, who registered and checked in, the seating of each round (its
tables and byes) and the organiser's decisions (start, confirm). What a table scores lives in
its game (the games app): standings are derived from the games' results on every read
(``tournaments.selectors``), so a correction at a table shows in the standings at once.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import FAMILY_CHOICES, Club, Game, Player


def new_public_id() -> str:
    """The id in a tournament's address: random, so ids cannot be enumerated."""
    return secrets.token_urlsafe(9)


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Tournament(models.Model):
    class Seating(models.TextChoices):
        BALANCED = "balanced", _("Balanced: fewest repeated opponents")
        SWISS = "swiss", _("Swiss: by standings, top players together")
        RANDOM = "random", _("Random")
        MANUAL = "manual", _("Manual: I move players myself")

    class SeatOrder(models.TextChoices):
        RANDOM = "random", _("Random")
        ROTATING = "rotating", _("Rotating: who dealt first least often deals first")

    class Points(models.TextChoices):
        TABLE = "table", _("Table points: 7 for first, 1 for last, the same average at every table")
        WIN = "win", _("A win is 1, anything else 0")
        SCORE = "score", _("The game's own score")
        CUSTOM = "custom", _("My own list per table size")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(_("name"), max_length=80)
    date = models.DateField(_("date"))
    family = models.CharField(_("rule family"), max_length=16, choices=FAMILY_CHOICES)
    options = models.JSONField(_("house rules"), default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    # 0: a round is played to the family's end (elimination, target, agreed hands).
    round_hands = models.PositiveSmallIntegerField(_("hands per round"), default=0)
    table_min = models.PositiveSmallIntegerField(_("smallest table"))
    table_max = models.PositiveSmallIntegerField(_("largest table"))
    table_preferred = models.PositiveSmallIntegerField(_("preferred table size"))
    byes_allowed = models.BooleanField(_("byes when the players do not fit the tables"), default=True)
    seating = models.CharField(_("seating"), max_length=10, choices=Seating.choices, default=Seating.BALANCED)
    seat_order = models.CharField(
        _("who deals first"), max_length=10, choices=SeatOrder.choices, default=SeatOrder.RANDOM
    )
    points = models.CharField(_("table points"), max_length=8, choices=Points.choices, default=Points.TABLE)
    # Custom points per table size: {"4": [5, 3, 2, 0], ...}.
    custom_points = models.JSONField(default=dict, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)
    seed = models.BigIntegerField(default=new_seed)
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player registered for a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    checked_in = models.BooleanField(default=False)
    # The first round he can be seated in (a late arrival joins from the next round).
    from_round = models.PositiveSmallIntegerField(default=1)
    # He dropped out after this round (keeps his results); None: still playing.
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)
    pinned_table = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "player__key"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player")]

    def __str__(self) -> str:
        return f"{self.player_id}@{self.tournament_id}"


class Round(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated", _("seated")
        PLAYING = "playing", _("playing")
        CONFIRMED = "confirmed", _("confirmed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SEATED)
    seed = models.BigIntegerField()
    version = models.PositiveIntegerField(default=1)
    started_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # The table's game, made when the round starts.
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")]

    def __str__(self) -> str:
        return f"{self.round_id} table {self.number}"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="table_seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="tableseat_unique_position"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} at {self.table_id}"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="bye_unique_entry")]

    def __str__(self) -> str:
        return f"{self.entry_id} bye in {self.round_id}"


class TournamentChange(models.Model):
    """One change to a tournament, for its history (and, with ``request_id``, so that a resent
    form changes nothing twice)."""

    class Action(models.TextChoices):
        CREATED = "created", _("created the tournament")
        SETTINGS = "settings", _("changed the settings")
        REGISTERED = "registered", _("registered a player")
        UNREGISTERED = "unregistered", _("removed a player")
        CHECKED_IN = "checked_in", _("checked a player in")
        CHECKED_OUT = "checked_out", _("undid a check-in")
        DROPPED = "dropped", _("a player dropped out")
        REJOINED = "rejoined", _("a player came back")
        PINNED = "pinned", _("pinned a player to a table")
        SEATED = "seated", _("seated a round")
        MOVED = "moved", _("moved a player")
        STARTED = "started", _("started a round")
        CONFIRMED = "confirmed", _("confirmed a round's results")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=12, choices=Action.choices)
    data = models.JSONField(default=dict)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    request_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "request_id"], name="tournamentchange_unique_request"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.action}"
