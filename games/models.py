"""Games at the table: seats, hands (their outcomes), derived scores and the change history.

A hand's ``outcome`` is the scoring package's JSON outcome, keyed by player names: it is the
record. ``Score`` rows are derived from it (one per player per hand) so that standings can be
queried; they are rewritten whenever a hand changes.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

FAMILY_CHOICES = [
    ("zoliky", _("Žolíky")),
    ("gin", _("Gin (knock rummy for two)")),
    ("carousel", _("Carousel rummy")),
    ("rummikub", _("Rummikub")),
]


def new_public_id() -> str:
    """The id in a game's address: random, so ids cannot be enumerated."""
    return secrets.token_urlsafe(9)


def new_edit_token() -> str:
    """The secret in a game's edit link (256 bits)."""
    return secrets.token_urlsafe(32)


class Game(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    edit_token = models.CharField(max_length=64, default=new_edit_token, editable=False)
    family = models.CharField(_("rule family"), max_length=16, choices=FAMILY_CHOICES)
    options = models.JSONField(_("house rules"), default=dict, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    first_dealer = models.PositiveSmallIntegerField(default=0)
    ended = models.BooleanField(_("evening ended"), default=False)
    next_hand_number = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"{self.get_family_display()} {self.public_id}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=40)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "name"], name="seat_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Hand(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    # Stable identity within the game (never reused, so a deleted hand can be restored);
    # the hand's place on the score sheet is its rank among the game's hands by number.
    number = models.PositiveIntegerField()
    outcome = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    # The idempotency key of the save that created the hand: a resend records it once.
    request_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_unique_number"),
            models.UniqueConstraint(fields=["game", "request_id"], name="hand_unique_request"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number}"


class Score(models.Model):
    """Points of one player in one hand, derived from the hand's outcome by the scoring rules."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="scores")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="scores")
    points = models.IntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="score_unique_player")]

    def __str__(self) -> str:
        return f"{self.seat_id}: {self.points}"


class Change(models.Model):
    """One change to a game's hands, kept for the history page and for undo."""

    class Action(models.TextChoices):
        ADDED = "added", _("added")
        EDITED = "edited", _("edited")
        DELETED = "deleted", _("deleted")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    hand_number = models.PositiveIntegerField()
    action = models.CharField(max_length=8, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # The request id of the hand's first save, kept after the hand is deleted: a late resend
    # of that save is then recognised (not recorded again), and undo restores it with the hand.
    request_id = models.UUIDField(null=True, blank=True)
    # The change this one undid, if it is an undo.
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} {self.hand_number}"
