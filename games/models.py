"""Clubs, players and games at the table: seats, hands (their outcomes), derived scores and
results, and the change histories.

A hand's ``outcome`` is the scoring package's JSON outcome, keyed by the seats' names: it is the
record. ``Score`` rows (one per player per hand) and ``Result`` rows (one per seat per game) are
derived from it so that standings can be queried; they are rewritten whenever a hand changes.

A ``Player`` is a person known to a club, to one user's own roster, or (for a game started
without an account) to that game alone. Every seat links to a player; the seat keeps the name
the outcomes use, so merging or renaming players never touches a recorded hand.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.families import family_choices


def new_invite_token() -> str:
    """The secret in a club's invite link (256 bits)."""
    return secrets.token_urlsafe(32)


class Club(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: anyone with the address sees the club's games")
        MEMBERS = "members", _("Members only")

    name = models.CharField(_("club name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=50, unique=True)
    visibility = models.CharField(
        _("who sees the club"), max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # The club's rating list: a rating on fewer rated games is marked provisional, and a player
    # with no game for longer is marked inactive (0: never).
    provisional_games = models.PositiveSmallIntegerField(
        _("rated games before a rating is settled"), default=5
    )
    inactive_days = models.PositiveSmallIntegerField(
        _("days without a game before a player is inactive"), default=180
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        SCOREKEEPER = "scorekeeper", _("scorekeeper")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, default=Role.MEMBER)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user")]

    def __str__(self) -> str:
        return f"{self.user_id}@{self.club_id}: {self.role}"


class Invite(models.Model):
    """A link that lets whoever opens it (logged in) join the club as a member."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invite {self.pk} to {self.club_id}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > timezone.now())


class Player(models.Model):
    """A person: of a club (``club``), of one user's own roster (``owner``), or of one game
    started without an account (neither). Names are unique per club or roster after
    normalisation (``key``); ``loose_key`` (accents dropped) finds likely duplicates."""

    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="players")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="roster"
    )
    name = models.CharField(_("name"), max_length=40)
    key = models.CharField(max_length=40, db_index=True)
    loose_key = models.CharField(max_length=40, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    # Set while this player is merged into another (undo clears it): kept so that undo can
    # give the seats back.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged"
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "key"],
                condition=models.Q(club__isnull=False, merged_into__isnull=True),
                name="player_unique_club_name",
            ),
            models.UniqueConstraint(
                fields=["owner", "key"],
                condition=models.Q(club__isnull=True, owner__isnull=False, merged_into__isnull=True),
                name="player_unique_roster_name",
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(club__isnull=False, user__isnull=False, merged_into__isnull=True),
                name="player_unique_club_user",
            ),
        ]

    def __str__(self) -> str:
        return self.name


def new_public_id() -> str:
    """The id in a game's address: random, so ids cannot be enumerated."""
    return secrets.token_urlsafe(9)


def new_edit_token() -> str:
    """The secret in a game's edit link (256 bits)."""
    return secrets.token_urlsafe(32)


class Game(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    edit_token = models.CharField(max_length=64, default=new_edit_token, editable=False, db_index=True)
    # The registry's families (scoring.families), called when read: a family is added without
    # a migration.
    family = models.CharField(_("rule family"), max_length=16, choices=family_choices)
    options = models.JSONField(_("house rules"), default=dict, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    # A club's game shows on the club's pages and counts for its standings; None: private.
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="games", verbose_name=_("club")
    )
    first_dealer = models.PositiveSmallIntegerField(default=0)
    ended = models.BooleanField(_("evening ended"), default=False)
    # Hands agreed on top of the family's own end (a tournament round of N hands); 0: none.
    hand_limit = models.PositiveSmallIntegerField(default=0)
    # The event the game is a table of (a tournament): its name, round and table number and the
    # path of its page, written by the event's app, which builds on this one (never the reverse).
    event_name = models.CharField(max_length=80, blank=True, default="")
    event_round = models.PositiveSmallIntegerField(null=True, blank=True)
    event_table = models.PositiveSmallIntegerField(null=True, blank=True)
    event_path = models.CharField(max_length=200, blank=True, default="")
    # When the event's round clock runs out (the phones count down to it); None: no clock.
    event_ends = models.DateTimeField(null=True, blank=True)
    # The event confirmed the game's results (set and cleared by the event's app): its edit
    # link and the club's scorekeepers no longer change it, its club's organisers still correct it.
    results_locked = models.BooleanField(default=False)
    next_hand_number = models.PositiveIntegerField(default=1)
    # A rematch: the game it was started from (same players and rules), and the request id of
    # the rematch, so that a resend finds the game it already started.
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    request_id = models.UUIDField(null=True, blank=True)
    # A game its scorekeeper put in another game's evening (played by the same players at one
    # table without a rematch between them): settled with it (games.selectors.evening).
    evening = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Deleted by an organiser of its club (undo clears it): the record stays, so that undo can
    # bring the game back; until then it is in no list, standing, rating or season.
    deleted_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the game was played (a score sheet typed in later carries the evening's time): what
    # ratings, seasons and lists order games by. Never in the future; changed as a recorded
    # change (games.services.games.game_date_set), which undo reverses.
    played_at = models.DateTimeField(_("played"), default=timezone.now, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["rematch_of", "request_id"], name="game_unique_rematch_request")
        ]

    def __str__(self) -> str:
        return f"{self.get_family_display()} {self.public_id}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=40)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

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


class Result(models.Model):
    """A seat's result in its game, derived from the hands like ``Score`` and rewritten with
    them: the total with end bonuses, the place (ties share it), and how the game went."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="result")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    total = models.IntegerField()
    place = models.PositiveSmallIntegerField()
    winner = models.BooleanField(default=False)
    finished = models.BooleanField(default=False)
    eliminated_in = models.PositiveIntegerField(null=True, blank=True)  # score-sheet hand
    hands = models.PositiveIntegerField(default=0)  # hands this player was dealt in

    class Meta:
        ordering = ["game", "place", "seat__position"]

    def __str__(self) -> str:
        return f"{self.seat_id}: {self.total} ({self.place})"


class Change(models.Model):
    """One change to a game, kept for the history page and for undo: to its hands (with the
    hand's number), its end (ended, reopened), its edit link (a new link: never undone), its
    starter (given to another; ``before``/``after`` hold the user ids) or its being there at
    all (deleted, brought back: a club's organisers only)."""

    class Action(models.TextChoices):
        ADDED = "added", _("added")
        EDITED = "edited", _("edited")
        DELETED = "deleted", _("deleted")
        ENDED = "ended", _("ended the game")
        REOPENED = "reopened", _("reopened the game")
        NEW_LINK = "new_link", _("made a new edit link")
        TRANSFER = "transfer", _("gave the game to another starter")
        REMOVED = "removed", _("deleted the game")
        RESTORED = "restored", _("brought the game back")
        DATED = "dated", _("changed the date of play")
        JOINED = "joined", _("put the game in an evening")
        PARTED = "parted", _("took the game out of an evening")

    END_ACTIONS = (Action.ENDED, Action.REOPENED)
    PRESENCE_ACTIONS = (Action.REMOVED, Action.RESTORED)
    # Changes only a club's organisers make, and undo.
    MANAGE_ACTIONS = (Action.TRANSFER, Action.REMOVED, Action.RESTORED)
    EVENING_ACTIONS = (Action.JOINED, Action.PARTED)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    # The hand changed; None for a change to the game itself (its end, its edit link).
    hand_number = models.PositiveIntegerField(null=True, blank=True)
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
        return self.action if self.hand_number is None else f"{self.action} {self.hand_number}"


class ClubChange(models.Model):
    """One change to a club's players or members, kept for the club's history and for undo."""

    class Action(models.TextChoices):
        MERGED = "merged", _("merged players")
        UNMERGED = "unmerged", _("undid a merge")
        RENAMED = "renamed", _("renamed a player")
        ROLE = "role", _("changed a role")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=8, choices=Action.choices)
    # What the change did, enough to undo it: player ids, names, the seats moved, roles.
    data = models.JSONField(default=dict)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    request_id = models.UUIDField(null=True, blank=True)
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "request_id"], name="clubchange_unique_request")
        ]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.action}"


def new_api_token() -> str:
    """A personal API token (256 bits), shown to its owner once; only its digest is stored."""
    return "rs_" + secrets.token_urlsafe(32)


class ApiToken(models.Model):
    """A user's token for the REST API (``Authorization: Bearer <token>``): read-only or
    read-write, revocable, stored as a SHA-256 digest (the token itself is shown only once)."""

    class Scope(models.TextChoices):
        READ = "read", _("read only")
        WRITE = "write", _("read and write")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=10)  # the token's first characters, to tell tokens apart
    scope = models.CharField(_("scope"), max_length=5, choices=Scope.choices, default=Scope.READ)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user_id})"


class RateCount(models.Model):
    """How many requests one client (``key``: a token, a user, an address, with the limit's
    name) made in one time window (``window``: its number since the epoch). Counted with one
    atomic upsert (games/services/rates.py), so parallel requests cannot undercount."""

    key = models.CharField(max_length=200)
    window = models.BigIntegerField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "window"], name="rate_count_key_window")]

    def __str__(self) -> str:
        return f"{self.key} @{self.window}: {self.count}"


class IdempotentRequest(models.Model):
    """An API write made with an ``Idempotency-Key``: the operation and object it was for
    (``scope``: method and path) and a digest of its body. The same key again must be the same
    request (rummy_site/idempotency.py); the services replay its result."""

    key = models.UUIDField(unique=True)
    scope = models.CharField(max_length=300)
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.key} {self.scope}"


class AuditEntry(models.Model):
    """One event of a club's audit log, for its organisers to read and export: who made or
    revoked an invite, removed a member, changed a role, the settings or the visibility,
    exported the data, made or revoked an API token, gave a game to another starter, deleted
    or brought one back, made a password reset link, and the organisers' logins. Only ever
    added to (games/services/audit.py); the actor's name is kept as text, so an entry still
    says who after his account is gone."""

    class Action(models.TextChoices):
        INVITE_CREATED = "invite_created", _("made an invite link")
        INVITE_REVOKED = "invite_revoked", _("revoked an invite link")
        MEMBER_JOINED = "member_joined", _("joined the club")
        MEMBER_REMOVED = "member_removed", _("removed a member")
        MEMBER_LEFT = "member_left", _("left the club")
        ROLE_CHANGED = "role_changed", _("changed a role")
        SETTINGS_CHANGED = "settings_changed", _("changed the settings")
        VISIBILITY_CHANGED = "visibility_changed", _("changed the visibility")
        EXPORTED = "exported", _("exported the club's data")
        AUDIT_EXPORTED = "audit_exported", _("exported the audit log")
        TOKEN_CREATED = "token_created", _("made an API token")
        TOKEN_REVOKED = "token_revoked", _("revoked an API token")
        GAME_TRANSFERRED = "game_transferred", _("gave a game to another starter")
        GAME_DELETED = "game_deleted", _("deleted a game")
        GAME_RESTORED = "game_restored", _("brought a game back")
        RESET_LINK = "reset_link", _("made a password reset link")
        LOGIN = "login", _("logged in")
        PENALTY_GIVEN = "penalty_given", _("gave a tournament penalty or warning")
        PENALTY_UNDONE = "penalty_undone", _("took back a tournament penalty or warning")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    action = models.CharField(max_length=20, choices=Action.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    actor_name = models.CharField(max_length=150, blank=True, default="")
    # Whom or what it was about, in words (a member's name, a game's id, a token's name).
    target = models.CharField(max_length=200, blank=True, default="")
    data = models.JSONField(default=dict, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "-created_at", "-id"], name="audit_club_recent")]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.action} {self.target}"


class UserSession(models.Model):
    """A logged-in browser of a user, for his list of active sessions (where he can end the
    others): made at login, its last request noted now and then by
    games.web.sessions.SessionSeen. The session itself stays in Django's session store; ending
    one deletes it there, which logs that browser out at once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="browser_sessions"
    )
    session_key = models.CharField(max_length=40, unique=True)
    user_agent = models.CharField(max_length=300, blank=True, default="")
    address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()

    class Meta:
        ordering = ["-last_seen", "-id"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.user_agent[:40]}"


class ResetLink(models.Model):
    """A one-time link that lets a user set a new password without e-mail: made by an
    organiser for a member of his club (or by a site admin for anyone), shown once (only a
    digest of its token is stored), valid for a short time and once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reset_links")
    digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user_id} until {self.expires_at:%Y-%m-%d %H:%M}"
