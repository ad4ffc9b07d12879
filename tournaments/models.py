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

from games.families import family_choices
from games.models import Club, Game, Player


def new_public_id() -> str:
    """The id in a tournament's address: random, so ids cannot be enumerated."""
    return secrets.token_urlsafe(9)


def new_check_in_key() -> str:
    """The secret in a tournament's check-in link: only those shown its code at the door use it."""
    return secrets.token_urlsafe(12)


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

    class Final(models.TextChoices):
        NONE = "none", _("No final")
        TABLE = "table", _("A final table of the top players")
        KNOCKOUT = "knockout", _("A knockout of the top 4 or 8 (1 v 8, 4 v 5, …)")

    class FinalCounts(models.TextChoices):
        DECIDES = "decides", _("The final decides the top places")
        ADDS = "adds", _("The final adds its points to the standings")

    class FrozenShows(models.TextChoices):
        STOOD = "stood", _("The standings as they stood before the frozen rounds")
        HIDDEN = "hidden", _("No standings")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(_("name"), max_length=80)
    date = models.DateField(_("date"))
    family = models.CharField(_("rule family"), max_length=16, choices=family_choices)
    options = models.JSONField(_("house rules"), default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    # 0: a round is played to the family's end (elimination, target, agreed hands).
    round_hands = models.PositiveSmallIntegerField(_("hands per round"), default=0)
    # The round clock's length, copied onto each round as it starts; 0: no clock.
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), default=0)
    table_min = models.PositiveSmallIntegerField(_("smallest table"))
    table_max = models.PositiveSmallIntegerField(_("largest table"))
    table_preferred = models.PositiveSmallIntegerField(_("preferred table size"))
    byes_allowed = models.BooleanField(_("byes when the players do not fit the tables"), default=True)
    seating = models.CharField(_("seating"), max_length=10, choices=Seating.choices, default=Seating.BALANCED)
    # Round 1 by the club's rating list of the family (a serpentine of the seeds), not by ``seating``.
    seed_by_rating = models.BooleanField(_("round 1 seeded by the club's rating list"), default=False)
    # Pairs of entries kept at different tables whenever a seating can: [[entry, entry], ...].
    apart = models.JSONField(default=list, blank=True)
    seat_order = models.CharField(
        _("who deals first"), max_length=10, choices=SeatOrder.choices, default=SeatOrder.RANDOM
    )
    points = models.CharField(_("table points"), max_length=8, choices=Points.choices, default=Points.TABLE)
    # Custom points per table size: {"4": [5, 3, 2, 0], ...}.
    custom_points = models.JSONField(default=dict, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)
    final = models.CharField(_("final"), max_length=10, choices=Final.choices, default=Final.NONE)
    # Players in the final: a final table's size (0: the family's usual table), a knockout's 4 or 8.
    final_size = models.PositiveSmallIntegerField(_("players in the final"), default=0)
    final_counts = models.CharField(
        _("what the final does"), max_length=8, choices=FinalCounts.choices, default=FinalCounts.DECIDES
    )
    # Seed the final from this season's qualifiers instead of the tournament's standings.
    final_season = models.ForeignKey(
        "Season", null=True, blank=True, on_delete=models.SET_NULL, related_name="finals"
    )
    # Self check-in at the door. The link's key is made when it first opens and kept when it
    # closes, so the code printed for the door works again when it reopens.
    check_in_open = models.BooleanField(_("self check-in open"), default=False)
    check_in_key = models.CharField(max_length=32, blank=True, default="", editable=False)
    # Each player confirms his table's final totals (or disputes them) by his own link, and the
    # organiser is asked before confirming a round whose tables have not all agreed.
    table_confirm = models.BooleanField(_("players confirm their table's result"), default=False)
    # The warnings and point penalties given, in order, each as the organiser gave it: {"id",
    # "entry", "player", "kind" ("warning" or "points"), "points" (a fraction as text, "3/2"),
    # "round" (None: the tournament's total), "reason", "undone"}. Kept on the tournament's row,
    # which every standings read has already, and changed only by services.penalties.penalty_give and
    # penalty_undo, each a recorded change.
    penalties = models.JSONField(default=list, blank=True)
    # Release gates. A round seated while ``hide_seating`` is set is seen by its organisers
    # only, until they publish it (``Round.published``).
    hide_seating = models.BooleanField(_("publish each round's seating myself"), default=False)
    # The public standings stop after the rounds before the last ``freeze_rounds`` (and before
    # the final, with ``freeze_final``) until the organisers reveal them.
    freeze_rounds = models.PositiveSmallIntegerField(_("freeze the standings for the last rounds"), default=0)
    freeze_final = models.BooleanField(_("freeze the standings before the final"), default=False)
    frozen_shows = models.CharField(
        _("while frozen, players see"), max_length=8, choices=FrozenShows.choices, default=FrozenShows.STOOD
    )
    standings_revealed = models.BooleanField(default=False, editable=False)
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

    @property
    def status(self) -> str:
        """registered, checked_in or dropped (a drop outranks a check-in)."""
        if self.dropped_after is not None:
            return "dropped"
        return "checked_in" if self.checked_in else "registered"


class Round(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated", _("seated")
        PLAYING = "playing", _("playing")
        CONFIRMED = "confirmed", _("confirmed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SEATED)
    seed = models.BigIntegerField()
    # 0: one of the tournament's rounds; 1, 2, …: a stage of its final (numbered after them).
    final_stage = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    started_at = models.DateTimeField(null=True, blank=True)
    # When the round's clock runs out (the last hand is then played), fixed as it starts so
    # that every server and screen counts down to the same moment; None: no clock.
    ends_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # False: seated, its tables seen by the organisers only (the tournament's hide_seating).
    published = models.BooleanField(default=True)
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
        CHECKED_SELF = "checked_self", _("a player checked in at the door")
        DOOR_OPENED = "door_opened", _("opened the self check-in")
        DOOR_CLOSED = "door_closed", _("closed the self check-in")
        DROPPED = "dropped", _("a player dropped out")
        REJOINED = "rejoined", _("a player came back")
        PINNED = "pinned", _("pinned a player to a table")
        APART = "apart", _("kept two players apart")
        APART_ENDED = "apart_ended", _("let two players meet again")
        SEATED = "seated", _("seated a round")
        MOVED = "moved", _("moved a player")
        STARTED = "started", _("started a round")
        CONFIRMED = "confirmed", _("confirmed a round's results")
        FINAL = "final", _("seated the final")
        FINAL_UNDONE = "final_undone", _("took back the final's seating")
        RESULT_AGREED = "result_ok", _("a player confirmed his table's result")
        RESULT_DISPUTED = "disputed", _("a player disputed his table's result")
        PENALTY = "penalty", _("gave a penalty or a warning")
        PENALTY_UNDONE = "penalty_undone", _("took back a penalty or a warning")
        PUBLISHED = "published", _("published a round's seating")
        UNPUBLISHED = "unpublished", _("hid a round's seating again")
        REVEALED = "revealed", _("revealed the frozen standings")
        REFROZEN = "refrozen", _("froze the standings again")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=20, choices=Action.choices)
    data = models.JSONField(default=dict)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    request_id = models.UUIDField(null=True, blank=True)
    # The operation and object the request id was given for ("entry-12:drop", "round-3:start"):
    # the same id again for anything else is refused, not answered as a resend.
    target = models.CharField(max_length=60, blank=True, default="")
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


class TableAnswer(models.Model):
    """A player's answer to his table's result (``Tournament.table_confirm``): he confirmed the
    totals he was shown, or disputed them with a word. ``seen`` is the sheet he answered (its
    hands and totals, ``table_answers.sheet_tag``): once the table's sheet differs from it, the
    answer no longer counts. His latest answer replaces the one before; each is also a
    ``TournamentChange``."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="answers")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="table_answers")
    disputed = models.BooleanField(default=False)
    word = models.CharField(max_length=80, blank=True, default="")
    seen = models.CharField(max_length=200)
    answered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "entry"]
        constraints = [models.UniqueConstraint(fields=["table", "entry"], name="tableanswer_unique_entry")]

    def __str__(self) -> str:
        return f"{self.entry_id} on {self.table_id}"


# ---------------------------------------------------------------------- seasons and ratings


class Season(models.Model):
    """A club's league season: which games and tournaments count, and how league points are
    earned. Its standings are derived (``SeasonStanding``), brought up to date by the worker
    after every change to a counted game and whenever the settings change."""

    class Counts(models.TextChoices):
        BOTH = "both", _("Club games and tournaments")
        GAMES = "games", _("Club games only")
        TOURNAMENTS = "tournaments", _("Tournaments only")

    class GamePoints(models.TextChoices):
        TABLE = "table", _("Table points: 7 for first, 1 for last, the same average at every table")
        WDL = "wdl", _("Win 3, shared first place 1, otherwise 0")

    class TournamentPoints(models.TextChoices):
        PRESET = "preset", _("25, 18, 15, 12, 10, 8, 6, 4, 2, 1 for places 1 to 10")
        CUSTOM = "custom", _("My own list by place")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts = models.DateField(_("first day"))
    ends = models.DateField(_("last day"))
    families = models.JSONField(default=list)  # rule families counted
    counts = models.CharField(_("what counts"), max_length=12, choices=Counts.choices, default=Counts.BOTH)
    game_points = models.CharField(
        _("league points per game"), max_length=8, choices=GamePoints.choices, default=GamePoints.TABLE
    )
    tournament_points = models.CharField(
        _("league points per tournament"),
        max_length=8,
        choices=TournamentPoints.choices,
        default=TournamentPoints.PRESET,
    )
    custom_points = models.JSONField(default=list, blank=True)  # by final place, as text ("12.5")
    best_events = models.PositiveSmallIntegerField(_("count only the best events"), default=0)
    drop_worst = models.PositiveSmallIntegerField(_("drop the worst events"), default=0)
    min_games = models.PositiveSmallIntegerField(_("games needed to be ranked"), default=0)
    tiebreaks = models.JSONField(default=list, blank=True)
    # The top this many ranked players qualify (a final seeded from it); 0: no line drawn.
    qualify = models.PositiveSmallIntegerField(_("the top players who qualify"), default=0)
    version = models.PositiveIntegerField(default=1)
    # The request id of the last change to the settings: its resend changes nothing again.
    request_id = models.UUIDField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the standings were last rebuilt (None: not yet).
    computed_at = models.DateTimeField(null=True, blank=True)
    # The latest event the stored standings count, as (ISO time, kind, id); None: none yet.
    # A game finished after it can be added to them without reading the others.
    counted_until = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-starts", "-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name


class SeasonStanding(models.Model):
    """One player's line in a season's standings (derived: rebuilt from the results)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    # The standings of one family of the season, or "" for all its families together.
    family = models.CharField(max_length=16, blank=True, default="")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_standings")
    rank = models.PositiveIntegerField()
    previous_rank = models.PositiveIntegerField(null=True, blank=True)  # before the last event
    ranked = models.BooleanField(default=True)  # played the minimum number of games
    separated_by = models.CharField(max_length=20, blank=True, default="")
    points = models.DecimalField(max_digits=12, decimal_places=3)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    average_place = models.FloatField(null=True, blank=True)
    events = models.PositiveIntegerField(default=0)  # games and tournaments that counted
    rating = models.IntegerField(null=True, blank=True)  # display rating at the season's end
    # The exact sums the ranking reads (points are shown to three decimals; shared places give
    # thirds), so that one more game is added to the line without reading the season again.
    exact_points = models.CharField(max_length=40, blank=True, default="")  # a fraction, "37/3"
    place_sum = models.PositiveIntegerField(default=0)  # over all his events
    played = models.PositiveIntegerField(default=0)  # all his events, counted or not

    class Meta:
        ordering = ["season", "family", "-ranked", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "family", "player"], name="seasonstanding_unique_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rank}"


class RatingEvent(models.Model):
    """A player's rating after one rated game (derived: rebuilt from the games' results).

    A club's finished games of a family are rated one after another in the order of
    ``played_at`` then ``game``; a change to a game re-rates it and every later game."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_events")
    family = models.CharField(max_length=16, choices=family_choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_events")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_events")
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
            models.Index(fields=["club", "family", "played_at", "game"], name="ratingevent_order"),
            models.Index(fields=["player", "family", "played_at"], name="ratingevent_player"),
        ]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="ratingevent_unique_player")]

    def __str__(self) -> str:
        return f"{self.player_id} after {self.game_id}"


class CurrentRating(models.Model):
    """A player's line in the club's rating list of one family (derived: rewritten from the
    rating events whenever the worker re-rates the family), so the list is one read of a row
    per player rather than a pass over the club's history.

    ``evening`` is the family's last day with a rated game in the club; ``evening_mu`` and
    ``evening_sigma`` are the player's rating before his first game that day (None when he did
    not play then) and ``evening_games`` his games that day."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="current_ratings")
    family = models.CharField(max_length=16, choices=family_choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="current_ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    last_played = models.DateTimeField()
    evening = models.DateField()
    evening_mu = models.FloatField(null=True)
    evening_sigma = models.FloatField(null=True)
    evening_games = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["club", "family"], name="currentrating_list")]
        constraints = [models.UniqueConstraint(fields=["player", "family"], name="currentrating_unique")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.family}"


class RatingDirty(models.Model):
    """Ratings (and the seasons) of a club's family that must be rebuilt from a point on: written
    in the transaction that changed a finished game, removed by the rebuild after the commit.
    While one exists the pages say "updating…"."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_dirty")
    family = models.CharField(max_length=16, choices=family_choices)
    since_at = models.DateTimeField()  # re-rate games from this one on (its played_at, id)
    since_game = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=1)  # counts the marks, so a stale rebuild is seen
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "family"], name="ratingdirty_unique_family")]

    def __str__(self) -> str:
        return f"{self.club_id} {self.family} since {self.since_game}"


class SeasonDirty(models.Model):
    """A season whose standings must be rebuilt: one row per change that moved them (written in
    that change's transaction, or by the worker when it re-rated the season's games), removed
    by the rebuild that read them. Rows are only ever added by writes, never updated, so a
    write never waits for a rebuild."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="dirty")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="season_dirty")
    created_at = models.DateTimeField(auto_now_add=True)
    # What moved, when only that did: a game finished for the first time (its id), or the
    # ratings of some players (their ids). Neither: anything, the season is derived again.
    finished_game = models.PositiveIntegerField(null=True, blank=True)
    rated_players = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["club", "season"], name="seasondirty_club")]

    def __str__(self) -> str:
        return f"season {self.season_id}"


class DerivedState(models.Model):
    """The worker's side of a club's derived numbers: when they were last complete, and the
    failures of the last tries (shown on /healthz and in the admin)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, primary_key=True, related_name="derived")
    as_of = models.DateTimeField(null=True, blank=True)  # every change before this is applied
    failures = models.PositiveIntegerField(default=0)  # failed tries since the last success
    last_error = models.TextField(blank=True, default="")
    failed_at = models.DateTimeField(null=True, blank=True)
    # The job at work on the club (its task result's id) and until when it counts as alive: its
    # worker renews this while the job runs, so a lapsed lease is a dead worker's job.
    lease_task = models.CharField(max_length=64, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("derived numbers of a club")
        verbose_name_plural = _("derived numbers of the clubs")

    def __str__(self) -> str:
        return f"{self.club_id} as of {self.as_of}"
