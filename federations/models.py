"""Federations: a regional or national body of clubs with its own organisers, the clubs that
belong to it (invited by the federation, accepted by the club, ended by either), its register
of persons (one entry per person, whatever the clubs he plays at) and the links from the clubs'
players to the register.

Everything a federation's organisers or a club's organisers change here is a
``FederationChange``: the federation's history, its audit log, the request ids that make a
resend change nothing twice, and what an undo reverses.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.families import family_choices
from games.models import Club, Game, Player
from tournaments.models import new_public_id


class Federation(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: anyone with the address sees the federation")
        MEMBERS = "members", _("Members only: its organisers and its clubs' members")

    class Counts(models.TextChoices):
        GAMES = "games", _("Every rated game of its member clubs")
        EVENTS = "events", _("Only tournaments its clubs mark as federation-rated")

    name = models.CharField(_("federation name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=50, unique=True)
    visibility = models.CharField(
        _("who sees the federation"), max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    counts = models.CharField(_("what counts"), max_length=8, choices=Counts.choices, default=Counts.GAMES)
    # The register's ids are the prefix and a number ("CZ-00042"): short to read out at a table.
    id_prefix = models.CharField(_("prefix of the register's ids"), max_length=6, default="")
    next_number = models.PositiveIntegerField(default=1)
    provisional_games = models.PositiveSmallIntegerField(
        _("rated games before a rating is settled"), default=5
    )
    inactive_days = models.PositiveSmallIntegerField(
        _("days without a game before a player is inactive"), default=365
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("federation")
        verbose_name_plural = _("federations")

    def __str__(self) -> str:
        return self.name


class FederationOrganiser(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="organisers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="federation_roles"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "user"], name="federationorganiser_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}@{self.federation_id}"


class FederationClub(models.Model):
    """A club's membership of a federation, one row per period: invited by the federation,
    accepted (or declined) by the club, ended by either. The club's games count for the
    federation from ``counts_from`` while it is a member; an ended period keeps what it
    counted."""

    class State(models.TextChoices):
        INVITED = "invited", _("invited")
        MEMBER = "member", _("member")
        DECLINED = "declined", _("declined")
        ENDED = "ended", _("left")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="clubs")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="federations")
    state = models.CharField(max_length=8, choices=State.choices, default=State.INVITED)
    # None until accepted when the invitation named no day: then the day it was accepted.
    counts_from = models.DateField(_("games count from"), null=True, blank=True)
    invited_at = models.DateTimeField(auto_now_add=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["federation", "club__name", "-invited_at"]
        constraints = [
            # One open period (invited or member) per club and federation.
            models.UniqueConstraint(
                fields=["federation", "club"],
                condition=models.Q(state__in=["invited", "member"]),
                name="federationclub_one_open",
            )
        ]
        indexes = [models.Index(fields=["club", "state"], name="federationclub_club")]

    def __str__(self) -> str:
        return f"{self.club_id} in {self.federation_id}: {self.state}"


class Person(models.Model):
    """An entry of a federation's register: one person, whatever clubs he plays at.
    ``number`` (shown with the federation's prefix) is his federation id; ``key`` his name
    normalised, to find likely duplicates. ``user`` is the account whose claim a club
    confirmed. A merged entry points at the one it was merged into (undo clears it)."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="register")
    number = models.PositiveIntegerField()
    name = models.CharField(_("name"), max_length=40)
    key = models.CharField(max_length=40, db_index=True)
    home_club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="home_persons"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="persons"
    )
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged"
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation", "number"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "number"], name="person_unique_number"),
            models.UniqueConstraint(
                fields=["federation", "user"],
                condition=models.Q(user__isnull=False, merged_into__isnull=True),
                name="person_unique_user",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PersonLink(models.Model):
    """A club's player linked to a register entry: made by the club's organiser (``linked``),
    or claimed by the person from his account and waiting for the club (``claimed``). A player
    is linked to one entry per federation, and an entry to one player per club."""

    class State(models.TextChoices):
        CLAIMED = "claimed", _("waiting for the club")
        LINKED = "linked", _("linked")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="links")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="links")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="federation_links")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="federation_links")
    state = models.CharField(max_length=8, choices=State.choices, default=State.LINKED)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["federation", "club", "player"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "player"], name="personlink_one_per_player"),
            models.UniqueConstraint(fields=["person", "club"], name="personlink_one_per_club"),
        ]
        indexes = [models.Index(fields=["club", "state"], name="personlink_club_state")]

    def __str__(self) -> str:
        return f"{self.player_id} → {self.person_id} ({self.state})"


class FederationChange(models.Model):
    """One change to a federation, its clubs or its register: the history its organisers read
    (and export), with who made it (kept as text too, so it still says who after his account
    is gone), the request id that made it, and what an undo needs."""

    class Action(models.TextChoices):
        CREATED = "created", _("created the federation")
        SETTINGS = "settings", _("changed the settings")
        ORGANISER_ADDED = "organiser_added", _("added an organiser")
        ORGANISER_REMOVED = "organiser_removed", _("removed an organiser")
        CLUB_INVITED = "club_invited", _("invited a club")
        INVITE_WITHDRAWN = "invite_withdrawn", _("withdrew a club's invitation")
        CLUB_JOINED = "club_joined", _("a club joined")
        CLUB_DECLINED = "club_declined", _("a club declined the invitation")
        CLUB_LEFT = "club_left", _("a club left")
        CLUB_REMOVED = "club_removed", _("ended a club's membership")
        PERSON_ADDED = "person_added", _("added a person to the register")
        PERSON_EDITED = "person_edited", _("edited a register entry")
        MERGED = "merged", _("merged two register entries")
        UNMERGED = "unmerged", _("undid a merge")
        LINKED = "linked", _("linked a club's player")
        UNLINKED = "unlinked", _("removed a player's link")
        CLAIMED = "claimed", _("a player claimed a register entry")
        CLAIM_CONFIRMED = "claim_confirmed", _("confirmed a player's claim")
        CLAIM_REFUSED = "claim_refused", _("refused a player's claim")
        MARKED = "marked", _("marked a tournament federation-rated")
        UNMARKED = "unmarked", _("took back a tournament's federation rating")
        IMPORTED = "imported", _("imported the federation from an export")
        OPEN_HOSTED = "open_hosted", _("a club hosts a federation open")
        OPEN_ENDED = "open_ended", _("a tournament is no longer a federation open")
        OPEN_ENTERED = "open_entered", _("entered a person in a federation open")
        OPEN_WITHDRAWN = "open_withdrawn", _("withdrew a person from a federation open")
        SEASON_CREATED = "season_created", _("created a season")
        SEASON_EDITED = "season_edited", _("changed a season's settings")
        SEASON_DELETED = "season_deleted", _("deleted a season")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=20, choices=Action.choices)
    # The club the change concerns (its organisers see it in their club's federation page).
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    data = models.JSONField(default=dict)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    user_name = models.CharField(max_length=150, blank=True, default="")
    request_id = models.UUIDField(null=True, blank=True)
    # The operation and object the request id was given for: the same id for another is refused.
    target = models.CharField(max_length=60, blank=True, default="")
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "request_id"], name="federationchange_unique_request"
            )
        ]
        indexes = [models.Index(fields=["federation", "-created_at", "-id"], name="federationchange_recent")]

    def __str__(self) -> str:
        return f"{self.federation_id}: {self.action}"


class RatedTournament(models.Model):
    """A member club's tournament that counts for a federation whose setting counts only such
    tournaments (marked by the club's organisers)."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="rated_tournaments")
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="federation_marks"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "tournament"], name="ratedtournament_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} rated by {self.federation_id}"


class FederationOpen(models.Model):
    """A member club's tournament hosted for the federation: any member club's register entries
    may enter (themselves when ``self_entry`` is on, or by their clubs' organisers), and round 1
    is seeded by the federation's live list. It is federation-rated while it is an open."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="opens")
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="federation_open"
    )
    self_entry = models.BooleanField(_("players may enter themselves"), default=True)
    # Informative: entries close for good when round 1 is seated.
    entries_close = models.DateTimeField(_("entries close"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation", "-created_at"]
        verbose_name = _("federation open")
        verbose_name_plural = _("federation opens")

    def __str__(self) -> str:
        return f"{self.tournament_id} open of {self.federation_id}"


class FederationRatingEvent(models.Model):
    """A rating step of one seat of a game that counts for a federation (derived: rebuilt from
    the clubs' results). ``who`` is whom the rating belongs to: the register entry the seat's
    player is linked to (its id), or, for a player linked to none, the player himself (minus
    his id), rated so that his opponents' results count but never listed."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="rating_events")
    family = models.CharField(max_length=16, choices=family_choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="federation_rating_events")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="federation_rating_events")
    who = models.BigIntegerField()
    played_at = models.DateTimeField()
    place = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()

    class Meta:
        ordering = ["played_at", "game_id"]
        indexes = [
            models.Index(fields=["federation", "family", "played_at", "game"], name="fedevent_order"),
            models.Index(fields=["federation", "family", "who", "played_at"], name="fedevent_who"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["federation", "game", "player"], name="fedevent_unique_seat")
        ]

    def __str__(self) -> str:
        return f"{self.who} after {self.game_id}"


class FederationRating(models.Model):
    """A register entry's line in the federation's live rating list of one family (derived:
    rewritten from the events whenever the worker re-rates the family)."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(max_length=16, choices=family_choices)
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    # The number the list shows and ranks by (``scoring.ratings.display``), kept so that a page
    # of a long list is ranked and cut in the database.
    rating = models.IntegerField()
    # The person's name as it sorts (his entry's ``key``): equal ratings are listed by name, and
    # a page of the list is read in that order from one index, with no join to sort by.
    key = models.CharField(max_length=40, default="")
    games = models.PositiveIntegerField()
    last_played = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["federation", "family", "-rating", "key", "person"], name="fedrating_list")
        ]
        constraints = [
            models.UniqueConstraint(fields=["federation", "family", "person"], name="fedrating_unique")
        ]

    def __str__(self) -> str:
        return f"{self.person_id} {self.family}"


class FederationDirty(models.Model):
    """A federation's family to re-rate from a game on: written in the transaction of the
    change that moved it, removed by the worker's re-rating that read it (see
    ``federations.derived``). Rows are only ever added by writes, one per change, never
    updated: the clubs of a federation save at once, and none waits for another's mark."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="dirty")
    family = models.CharField(max_length=16, choices=family_choices)
    since_at = models.DateTimeField()
    since_game = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["federation", "family"], name="federationdirty_family")]

    def __str__(self) -> str:
        return f"{self.federation_id} {self.family} since {self.since_game}"


class FederationState(models.Model):
    """The worker's side of a federation's list: when it was last whole, the failures of the
    last tries, and the lease of the job at work on it (as a club's ``DerivedState``)."""

    federation = models.OneToOneField(
        Federation, on_delete=models.CASCADE, primary_key=True, related_name="derived"
    )
    as_of = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    failed_at = models.DateTimeField(null=True, blank=True)
    lease_task = models.CharField(max_length=64, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.federation_id} as of {self.as_of}"


class PublishedList(models.Model):
    """The federation's rating list of one family as it stood at the start of a month: made
    once, in one transaction, by the worker, and never changed afterwards (a later correction
    moves the live list and the next month's, not this one)."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="published")
    family = models.CharField(max_length=16, choices=family_choices)
    month = models.DateField()  # the 1st of the month it was frozen on
    cutoff = models.DateTimeField()  # the games played before this count
    published_at = models.DateTimeField(auto_now_add=True)
    previous = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["federation", "family", "-month"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "family", "month"], name="publishedlist_unique")
        ]

    def __str__(self) -> str:
        return f"{self.federation_id} {self.family} {self.month:%Y-%m}"


class PublishedLine(models.Model):
    """One person's line of a published list, with what it showed then (his name and home club
    as they were, so a later edit of the register does not rewrite a published list)."""

    published = models.ForeignKey(PublishedList, on_delete=models.CASCADE, related_name="lines")
    person = models.ForeignKey(Person, null=True, on_delete=models.SET_NULL, related_name="+")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=40)
    home_club = models.CharField(max_length=80, blank=True, default="")
    rank = models.PositiveIntegerField()
    rating = models.IntegerField()
    uncertainty = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    last_played = models.DateTimeField()
    provisional = models.BooleanField()
    inactive = models.BooleanField()
    # Against the previous list: its rating then (None: not on it).
    previous_rating = models.IntegerField(null=True)
    previous_rank = models.PositiveIntegerField(null=True)

    class Meta:
        ordering = ["published", "rank", "name"]
        indexes = [models.Index(fields=["published", "rank"], name="publishedline_rank")]
        constraints = [models.UniqueConstraint(fields=["published", "number"], name="publishedline_unique")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name}"


class FederationSeason(models.Model):
    """A federation's season (a Grand Prix): its member clubs' federation-rated tournaments of
    its families dated in it, each placing the register's people by the tournament's final
    places, earning points by place and ranked as a club season's tournaments are
    (``scoring.league``). Its standings are derived (``FederationSeasonStanding``), kept by the
    federation's worker (``federations.seasons``)."""

    class TournamentPoints(models.TextChoices):
        PRESET = "preset", _("25, 18, 15, 12, 10, 8, 6, 4, 2, 1 for places 1 to 10")
        CUSTOM = "custom", _("My own list by place")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="seasons")
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    name = models.CharField(_("name"), max_length=80)
    starts = models.DateField(_("first day"))
    ends = models.DateField(_("last day"))
    families = models.JSONField(default=list)  # rule families counted
    tournament_points = models.CharField(
        _("points per tournament"),
        max_length=8,
        choices=TournamentPoints.choices,
        default=TournamentPoints.PRESET,
    )
    custom_points = models.JSONField(default=list, blank=True)  # by place, as text ("12.5")
    best_events = models.PositiveSmallIntegerField(_("count only the best tournaments"), default=0)
    drop_worst = models.PositiveSmallIntegerField(_("drop the worst tournaments"), default=0)
    min_events = models.PositiveSmallIntegerField(_("tournaments needed to be ranked"), default=0)
    tiebreaks = models.JSONField(default=list, blank=True)
    # The top this many ranked people qualify; 0: no line drawn.
    qualify = models.PositiveSmallIntegerField(_("the top players who qualify"), default=0)
    version = models.PositiveIntegerField(default=1)
    # The request id of the last change to the settings: its resend changes nothing again.
    request_id = models.UUIDField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    computed_at = models.DateTimeField(null=True, blank=True)  # standings last derived

    class Meta:
        ordering = ["federation", "-starts", "-id"]
        verbose_name = _("federation season")
        verbose_name_plural = _("federation seasons")

    def __str__(self) -> str:
        return self.name


class FederationSeasonStanding(models.Model):
    """A register entry's line in a federation season's standings (derived)."""

    season = models.ForeignKey(FederationSeason, on_delete=models.CASCADE, related_name="standings")
    # The standings of one family of the season, or "" for all its families together.
    family = models.CharField(max_length=16, blank=True, default="")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="season_standings")
    rank = models.PositiveIntegerField()
    ranked = models.BooleanField(default=True)  # played the minimum number of tournaments
    previous_rank = models.PositiveIntegerField(null=True, blank=True)  # before the last tournament
    separated_by = models.CharField(max_length=20, blank=True, default="")
    points = models.DecimalField(max_digits=12, decimal_places=3)
    exact_points = models.CharField(max_length=40, blank=True, default="")  # a fraction, "37/3"
    events = models.PositiveIntegerField(default=0)  # tournaments whose points count
    wins = models.PositiveIntegerField(default=0)
    average_place = models.FloatField(null=True, blank=True)
    played = models.PositiveIntegerField(default=0)  # all his tournaments, counted or not

    class Meta:
        ordering = ["season", "family", "-ranked", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["season", "family", "person"], name="fedseasonstanding_unique")
        ]
        indexes = [
            models.Index(fields=["season", "family", "-ranked", "rank"], name="fedseasonstanding_order")
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.person_id}"


class FederationSeasonResult(models.Model):
    """A register entry's result in one tournament a federation season counts (derived with
    the standings): his place among the register's people of the tournament and the points it
    earned, what his league card lists."""

    season = models.ForeignKey(FederationSeason, on_delete=models.CASCADE, related_name="results")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=16, choices=family_choices)
    date = models.DateField()
    place = models.PositiveSmallIntegerField()  # among the register's people of the tournament
    finished = models.PositiveSmallIntegerField()  # his place in the tournament's own standings
    players = models.PositiveSmallIntegerField()  # the register's people placed in it
    exact_points = models.CharField(max_length=40)  # a fraction, "37/3"

    class Meta:
        ordering = ["season", "date", "tournament"]
        constraints = [
            models.UniqueConstraint(fields=["season", "tournament", "person"], name="fedseasonresult_unique")
        ]
        indexes = [models.Index(fields=["season", "person", "date"], name="fedseasonresult_person")]

    def __str__(self) -> str:
        return f"{self.person_id} {self.place} in {self.tournament_id}"


class FederationSeasonDirty(models.Model):
    """A federation season to derive again: written in the transaction of the change that
    moved it, removed by the worker's derivation that read it (rows only added, as
    ``FederationDirty``)."""

    season = models.ForeignKey(FederationSeason, on_delete=models.CASCADE, related_name="dirty")
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="season_dirty")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"season {self.season_id}"
