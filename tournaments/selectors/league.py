"""What the club rating list and a player's league card read: a fixed number of queries each,
whatever the number of players (tests/tournaments/test_rating_list.py pins the counts).

The rating list ranks a club's players of one family by the rating shown on their pages
(``scoring.ratings.display``), with the uncertainty on the same scale, and the change the
club's last evening brought: the last day on which the family had a rated game, in the site's
time zone. The league card lists a player's events of a season with the points each earned and
whether it counted, by ``scoring.league.event_marks``, the rule the standings apply."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db.models import Exists, OuterRef
from django.utils import timezone

from engine.rules import FAMILIES
from games.models import Club, Game, Player
from games.text.collation import by_name
from scoring.league import PRESET_PLACES, EventMark, event_marks, game_event_points, tournament_event_points
from scoring.ratings import Rating, display, display_sigma
from tournaments.derived import freshness
from tournaments.models import CurrentRating, RatingEvent, Season, SeasonStanding, Tournament
from tournaments.seasons import ALL, place_points, season_events


@dataclass(frozen=True)
class RatingListRow:
    rank: int  # competition rank by the rating shown ("1224")
    player_id: int
    name: str
    rating: int  # as displayed
    uncertainty: int  # σ on the rating's scale (± beside it)
    mu: float
    sigma: float
    games: int  # rated games of the family
    last_played: datetime.datetime
    trend: int | None  # the rating's change on the last evening (0: did not play); None: new then
    provisional: bool  # fewer rated games than the club's settings ask
    inactive: bool  # no game for longer than the club's settings allow


@dataclass(frozen=True)
class RatingList:
    club: Club
    family: str  # "" when the club has no rated game yet
    families: list[str]  # the families the club has rated games of
    rows: list[RatingListRow]
    evening: datetime.date | None  # the last evening with a rated game of the family
    pending: bool = False
    as_of: datetime.datetime | None = None

    @property
    def updating(self) -> bool:
        return self.pending


def rated_families(*, club: Club) -> list[str]:
    """The families the club has rated games of, in the site's order (1 query: a seek per
    family, not a pass over the club's history)."""
    found = (
        Club.objects.filter(pk=club.pk)
        .annotate(
            **{
                f"has_{f}": Exists(RatingEvent.objects.filter(club=OuterRef("pk"), family=f))
                for f in FAMILIES
            }
        )
        .values(*(f"has_{f}" for f in FAMILIES))
        .first()
    ) or {}
    return [f for f in FAMILIES if found.get(f"has_{f}")]


def evening_trend(
    mu: float, sigma: float, games: int, mu_then: float | None, sigma_then: float | None, games_then: int
) -> int | None:
    """The displayed rating's change on the family's last evening in the club: 0 when he did not
    play then, None when that evening was his first."""
    if not games_then or mu_then is None or sigma_then is None:
        return 0
    if games_then == games:
        return None
    return display(Rating(mu, sigma)) - display(Rating(mu_then, sigma_then))


def rating_list(*, club: Club, family: str = "", now: datetime.datetime | None = None) -> RatingList:
    """The club's players of ``family`` (else the first family rated) by rating, from the lines
    the worker keeps (``rating_history.keep_current``)."""
    families = rated_families(club=club)
    fresh = freshness(club.pk)
    if family not in families:
        family = families[0] if families else ""
    if not family:
        return RatingList(club, "", families, [], None, fresh.pending, fresh.as_of)
    lines = list(
        CurrentRating.objects.filter(club=club, family=family, player__merged_into=None)
        .order_by()
        .values_list(
            "player_id",
            "player__name",
            "mu",
            "sigma",
            "last_played",
            "games",
            "evening",
            "evening_mu",
            "evening_sigma",
            "evening_games",
        )
    )
    if not lines:
        return RatingList(club, family, families, [], None, fresh.pending, fresh.as_of)
    evening = lines[0][6]
    now = now or timezone.now()
    idle = datetime.timedelta(days=club.inactive_days)
    shown = []
    for player_id, name, mu, sigma, played_at, games, _evening, mu_then, sigma_then, games_then in lines:
        rating = Rating(mu, sigma)
        value = display(rating)
        trend = evening_trend(mu, sigma, games, mu_then, sigma_then, games_then)
        shown.append((value, name, player_id, rating, played_at, games, trend))
    shown.sort(key=lambda s: (-s[0], by_name(s[1]), s[2]))  # equal ratings by name
    rows: list[RatingListRow] = []
    for position, (value, name, player_id, rating, played_at, games, trend) in enumerate(shown, start=1):
        rank = rows[-1].rank if rows and rows[-1].rating == value else position
        rows.append(
            RatingListRow(
                rank=rank,
                player_id=player_id,
                name=name,
                rating=value,
                uncertainty=display_sigma(rating),
                mu=rating.mu,
                sigma=rating.sigma,
                games=games,
                last_played=played_at,
                trend=trend,
                provisional=games < club.provisional_games,
                inactive=bool(club.inactive_days) and now - played_at > idle,
            )
        )
    return RatingList(club, family, families, rows, evening, fresh.pending, fresh.as_of)


# ---------------------------------------------------------------------- a player's league card


@dataclass(frozen=True)
class CardEvent:
    kind: str  # "game" or "tournament"
    when: datetime.datetime
    public_id: str  # the game's or the tournament's
    name: str  # a tournament's name ("" for a game)
    family: str
    place: int
    players: int
    points: Fraction
    mark: EventMark  # "counted", "dropped_worst" or "not_best"

    @property
    def counted(self) -> bool:
        return self.mark == "counted"


@dataclass(frozen=True)
class LeagueCard:
    season: Season
    player: Player
    family: str  # "" for every family of the season together
    events: list[CardEvent]  # in the order they were played
    standing: SeasonStanding | None  # his line in the standings, if he has one
    pending: bool = False
    as_of: datetime.datetime | None = None

    @property
    def updating(self) -> bool:
        return self.pending

    @property
    def total(self) -> Fraction:
        """The sum of the counted events: his points in the standings."""
        return sum((e.points for e in self.events if e.counted), Fraction(0))

    @property
    def counted(self) -> int:
        return sum(1 for e in self.events if e.counted)

    @property
    def rank(self) -> int | None:
        """His rank in the standings; None below the line or without a line."""
        return self.standing.rank if self.standing is not None and self.standing.ranked else None

    @property
    def below_minimum(self) -> bool:
        """He has not played the games the season asks for to be ranked."""
        return self.standing is not None and not self.standing.ranked

    @property
    def games_missing(self) -> int:
        played = self.standing.games if self.standing is not None else 0
        return max(0, self.season.min_games - played)


def exact_text(value: Fraction | Decimal) -> str:
    """A league number for a file or the API: ``12.5``, ``3.667`` (three decimals at most, as
    the standings store them)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else value
    return f"{exact.quantize(Decimal('0.001')).normalize():f}"


def card_marks(points: Sequence[Fraction], season: Season) -> list[EventMark]:
    return event_marks(points, best_events=season.best_events, drop_worst=season.drop_worst)


def league_card(*, season: Season, player: Player, family: str = "") -> LeagueCard:
    """His events of the season (of ``family``, else all), with the points each earned and
    whether it counted, as the standings count them (the season's results, each counted
    tournament's final standings, and 4 queries more)."""
    if family not in season.families or len(season.families) == 1:
        family = ALL
    by_place = place_points(season) or PRESET_PLACES
    # (family, key, place, players, points) of each of his events; a key is (when, 0 for a game
    # or 1 for a tournament, its id), as the standings order them.
    mine: list[tuple[str, tuple[datetime.datetime, int, int], int, int, Fraction]] = []
    for fam, event in season_events(season):
        if family not in (ALL, fam) or player.pk not in event.players:
            continue
        seat = event.players.index(player.pk)
        if event.kind == "game":
            worth = game_event_points(event.places, season.game_points)  # type: ignore[arg-type]
        else:
            worth = tournament_event_points(event.places, by_place)
        mine.append((fam, event.key, event.places[seat], len(event.places), worth[seat]))  # type: ignore[arg-type]
    mine.sort(key=lambda m: m[1])
    marks = card_marks([m[4] for m in mine], season)
    game_ids = [key[2] for _f, key, *_rest in mine if key[1] == 0]
    tournament_ids = [key[2] for _f, key, *_rest in mine if key[1] == 1]
    games = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "public_id")) if game_ids else {}
    tournaments = (
        {t.pk: t for t in Tournament.objects.filter(pk__in=tournament_ids).only("public_id", "name")}
        if tournament_ids
        else {}
    )
    events = []
    for (fam, (when, order, pk), place, size, points), mark in zip(mine, marks, strict=True):
        tournament = tournaments.get(pk) if order == 1 else None
        events.append(
            CardEvent(
                kind="tournament" if order == 1 else "game",
                when=when,
                public_id=tournament.public_id if tournament else games.get(pk, ""),
                name=tournament.name if tournament else "",
                family=fam,
                place=place,
                players=size,
                points=points,
                mark=mark,
            )
        )
    standing = (
        SeasonStanding.objects.filter(season=season, family=family, player=player)
        .select_related("player")
        .first()
    )
    fresh = freshness(season.club_id)
    return LeagueCard(season, player, family, events, standing, fresh.pending, fresh.as_of)
