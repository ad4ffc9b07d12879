"""What a signed-in person's home shows: what is on now in his clubs. Today's tournaments (where
he sits in the current round), the games in progress he may record, his clubs' current seasons
(the top lines and his own) and his ratings with their trend. It reads games and tournaments
together, so it lives here (tournaments builds on games, never the reverse).

A person is a club's player through his claim (``Player.user``); only the clubs he is a member
of are read, so nothing of a club he left or was never in shows. A fixed number of queries,
whatever the number of his clubs, games and seasons (tests/tournaments/test_home.py pins it)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Exists, F, OuterRef, Prefetch, Q, Subquery, Window
from django.db.models.functions import RowNumber
from django.urls import reverse
from django.utils import timezone

from games.models import Club, Game, Membership, Player, Result, Seat
from scoring.ratings import Rating, display, display_sigma
from tournaments.models import Bye, CurrentRating, Entry, Round, Season, SeasonStanding, TableSeat, Tournament
from tournaments.selectors.league import evening_trend
from tournaments.services.entries import door_path

# The season's top lines a home shows (his own line comes besides them).
SEASON_TOP = 3
# Games in progress listed, most recently changed first.
GAMES_SHOWN = 8

Role = Membership.Role
RECORDING = (Role.SCOREKEEPER, Role.ORGANISER)


@dataclass(frozen=True)
class HomeClub:
    club: Club
    role: str
    player: Player | None  # the player he claimed in this club


@dataclass(frozen=True)
class HomeTournament:
    """A tournament of his club today, and where he is in it."""

    tournament: Tournament
    entry_id: int | None  # his entry; None: he is not registered
    name: str  # his player's name in it ("" when not registered)
    checked_in: bool
    dropped: bool
    round: int | None  # the round being seated or played, else the last one; None: none yet
    round_status: str | None
    table: int | None  # his table in that round; None: not seated (or a bye)
    seat: int | None  # 1-based; seat 1 deals first
    game: Game | None  # his table's game (its page is the table's phone page), once started
    bye: bool
    door: str | None  # the self check-in link while the door is open and he is not checked in
    published: bool = True  # False: the round's seating is not published yet (no seat shown)

    @property
    def path(self) -> str:
        return reverse("tournaments:detail", kwargs={"public_id": self.tournament.public_id})

    @property
    def table_path(self) -> str | None:
        """His table's page: the game's sheet once the round started, else his rounds."""
        if self.game is not None:
            return reverse("games:detail", kwargs={"public_id": self.game.public_id})
        return self.player_path if self.table is not None else None

    @property
    def player_path(self) -> str | None:
        if self.entry_id is None:
            return None
        return reverse(
            "tournaments:player", kwargs={"public_id": self.tournament.public_id, "entry_id": self.entry_id}
        )

    @property
    def seat_path(self) -> str:
        """ "Where do I sit?" of the tournament."""
        return reverse("tournaments:find_seat", kwargs={"public_id": self.tournament.public_id})


@dataclass(frozen=True)
class HomeGame:
    """A game in progress he may record."""

    game: Game
    players: list[str]  # the seats' names in order
    hands: int  # hands recorded so far

    @property
    def path(self) -> str:
        return reverse("games:detail", kwargs={"public_id": self.game.public_id})


@dataclass(frozen=True)
class HomeSeason:
    """A current season of one of his clubs: its top lines and his own."""

    season: Season
    top: list[SeasonStanding]  # the first SEASON_TOP lines (ranked first)
    mine: SeasonStanding | None  # his line, if he has one

    @property
    def path(self) -> str:
        return reverse("tournaments:season", kwargs={"public_id": self.season.public_id})

    @property
    def mine_shown(self) -> bool:
        """His line is among the top lines already."""
        return self.mine is not None and any(r.pk == self.mine.pk for r in self.top)

    @property
    def card_path(self) -> str | None:
        """His league card in the season."""
        if self.mine is None:
            return None
        return reverse(
            "tournaments:league_card", kwargs={"public_id": self.season.public_id, "pk": self.mine.player_id}
        )


@dataclass(frozen=True)
class HomeRating:
    """His rating in one family of one of his clubs."""

    club: Club
    player_id: int
    family: str
    rating: int  # as displayed
    uncertainty: int  # σ on the rating's scale
    games: int
    trend: int | None  # the change on the club's last evening of the family (0: did not play); None: new then
    evening: datetime.date  # that evening
    provisional: bool

    @property
    def path(self) -> str:
        """His rating history in the family."""
        url = reverse("tournaments:player_ratings", kwargs={"slug": self.club.slug, "pk": self.player_id})
        return f"{url}?family={self.family}"


@dataclass(frozen=True)
class Home:
    clubs: list[HomeClub]
    tournaments: list[HomeTournament]
    games: list[HomeGame]
    seasons: list[HomeSeason]
    ratings: list[HomeRating]

    @property
    def has_clubs(self) -> bool:
        return bool(self.clubs)

    @property
    def players(self) -> list[Player]:
        return [c.player for c in self.clubs if c.player is not None]


def home_of(*, user: User, now: datetime.datetime | None = None) -> Home:
    """The signed-in user's home (10 queries at most: fewer when there is nothing to read)."""
    today = timezone.localdate(now or timezone.now())
    memberships = list(Membership.objects.filter(user=user).select_related("club").order_by("club__name"))
    club_ids = [m.club_id for m in memberships]
    mine = {
        p.club_id: p
        for p in Player.objects.filter(user=user, club_id__in=club_ids, merged_into=None).select_related(
            "club"
        )
    }
    clubs = [HomeClub(m.club, m.role, mine.get(m.club_id)) for m in memberships]
    roles = {m.club_id: (Role.ORGANISER if user.is_superuser else m.role) for m in memberships}
    player_ids = [p.pk for p in mine.values()]
    return Home(
        clubs=clubs,
        tournaments=_tournaments(club_ids, player_ids, today),
        games=_games(user, roles),
        seasons=_seasons(club_ids, player_ids, today),
        ratings=_ratings(player_ids),
    )


def _tournaments(
    club_ids: Sequence[int], player_ids: Sequence[int], today: datetime.date
) -> list[HomeTournament]:
    """Today's tournaments of his clubs with his entry and seat in the current round (3 queries)."""
    if not club_ids:
        return []
    latest = Round.objects.filter(tournament=OuterRef("pk")).order_by("-number")
    tournaments = list(
        Tournament.objects.filter(club_id__in=club_ids, date=today)
        .select_related("club")
        .annotate(
            current_id=Subquery(latest.values("pk")[:1]),
            current_number=Subquery(latest.values("number")[:1]),
            current_status=Subquery(latest.values("status")[:1]),
            current_published=Subquery(latest.values("published")[:1]),
        )
        .order_by("club__name", "name", "pk")
    )
    if not tournaments:
        return []
    entries = {
        e.tournament_id: e
        for e in Entry.objects.filter(tournament__in=tournaments, player_id__in=player_ids)
        .select_related("player")
        .annotate(
            bye=Exists(
                Bye.objects.filter(
                    entry=OuterRef("pk"),
                    round_id=Subquery(
                        Round.objects.filter(tournament=OuterRef(OuterRef("tournament_id")))
                        .order_by("-number")
                        .values("pk")[:1]
                    ),
                )
            )
        )
    }
    # A round whose seating is not published shows nobody's seat (nor his bye) before it is.
    current = [
        t.current_id  # type: ignore[attr-defined]
        for t in tournaments
        if t.current_id is not None and _published(t)  # type: ignore[attr-defined]
    ]
    seats = {
        s.entry_id: s
        for s in TableSeat.objects.filter(
            entry__in=list(entries.values()), table__round_id__in=current
        ).select_related("table__game")
    }
    found = []
    for t in tournaments:
        entry = entries.get(t.pk)
        seat = seats.get(entry.pk) if entry is not None else None
        dropped = entry is not None and entry.dropped_after is not None
        door = (
            door_path(t)
            if entry is not None and t.check_in_open and not entry.checked_in and not dropped
            else None
        )
        found.append(
            HomeTournament(
                tournament=t,
                entry_id=entry.pk if entry is not None else None,
                name=entry.player.name if entry is not None else "",
                checked_in=entry is not None and entry.checked_in,
                dropped=dropped,
                round=t.current_number,  # type: ignore[attr-defined]
                round_status=t.current_status,  # type: ignore[attr-defined]
                table=seat.table.number if seat is not None else None,
                seat=seat.position + 1 if seat is not None else None,
                game=seat.table.game if seat is not None else None,
                bye=bool(entry is not None and entry.bye and _published(t)),  # type: ignore[attr-defined]
                published=_published(t),
                door=door,
            )
        )
    return found


def _published(tournament: Tournament) -> bool:
    """The players see the current round's seating (annotated by ``_tournaments``)."""
    status = tournament.current_status  # type: ignore[attr-defined]
    hidden = tournament.hide_seating and status == Round.Status.SEATED and not tournament.current_published  # type: ignore[attr-defined]
    return not hidden


def _games(user: User, roles: dict[int, str]) -> list[HomeGame]:
    """The games in progress he may record, as ``access.can_edit`` allows by his account (an
    edit link a browser holds is that browser's, not the account's): his own private games,
    his clubs' games where he is a scorekeeper or organiser, and those whose results an event
    confirmed only where he organises (2 queries)."""
    recording = [c for c, r in roles.items() if r in RECORDING]
    organising = [c for c, r in roles.items() if r == Role.ORGANISER]
    allowed = (
        Q(club=None, owner=user) | Q(club_id__in=recording, results_locked=False) | Q(club_id__in=organising)
    )
    finished = Result.objects.filter(game=OuterRef("pk"), finished=True)
    games = list(
        Game.objects.filter(allowed, ended=False, deleted_at=None)
        .exclude(Exists(finished))
        .select_related("club")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("position")))
        .order_by("-updated_at", "-pk")[:GAMES_SHOWN]
    )
    # The next hand's number counts a deleted hand too (numbers are never reused): close enough.
    return [HomeGame(g, [s.name for s in g.seats.all()], g.next_hand_number - 1) for g in games]


def _seasons(club_ids: Sequence[int], player_ids: Sequence[int], today: datetime.date) -> list[HomeSeason]:
    """His clubs' current seasons with their top lines and his own (2 queries)."""
    if not club_ids:
        return []
    seasons = list(
        Season.objects.filter(club_id__in=club_ids, starts__lte=today, ends__gte=today)
        .select_related("club")
        .order_by("club__name", "-starts", "pk")
    )
    if not seasons:
        return []
    order = (F("ranked").desc(), F("rank").asc(), F("player__key").asc())
    lines: list[SeasonStanding] = list(
        SeasonStanding.objects.filter(season__in=seasons, family="")
        .annotate(row=Window(RowNumber(), partition_by=[F("season_id")], order_by=order))
        .filter(Q(row__lte=SEASON_TOP) | Q(player_id__in=list(player_ids)))
        .select_related("player")
        .order_by("season_id", "row")
    )
    shown = []
    for season in seasons:
        own = [r for r in lines if r.season_id == season.pk]
        top = [r for r in own if r.row <= SEASON_TOP]  # type: ignore[attr-defined]
        his = next((r for r in own if r.player_id in player_ids), None)
        shown.append(HomeSeason(season, top, his))
    return shown


def _ratings(player_ids: Sequence[int]) -> list[HomeRating]:
    """His current rating in each family of each of his clubs, with the last evening's change
    as the club's rating list shows it (1 query)."""
    if not player_ids:
        return []
    lines = CurrentRating.objects.filter(player_id__in=list(player_ids)).select_related("club")
    found = []
    for line in lines.order_by("club__name", "family"):
        rating = Rating(line.mu, line.sigma)
        found.append(
            HomeRating(
                club=line.club,
                player_id=line.player_id,
                family=line.family,
                rating=display(rating),
                uncertainty=display_sigma(rating),
                games=line.games,
                trend=evening_trend(
                    line.mu, line.sigma, line.games, line.evening_mu, line.evening_sigma, line.evening_games
                ),
                evening=line.evening,
                provisional=line.games < line.club.provisional_games,
            )
        )
    return found
