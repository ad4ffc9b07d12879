"""What the season, rating and head-to-head pages and the API's seasons resources read: a
fixed number of queries each (the tests pin the counts)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games.models import Club, Game, Player, Result
from games.text.collation import by_name
from scoring.ranking import HeadToHead, head_to_head
from scoring.ratings import START, Rating, display, display_sigma, win_chances
from tournaments.derived import freshness
from tournaments.models import (
    RatingEvent,
    Season,
    SeasonStanding,
)
from tournaments.rating_history import ratings_of
from tournaments.seasons import evenings, standings_after
from tournaments.services.seasons import current_season_settings


def season_rows(*, club: Club) -> QuerySet[Season]:
    """The club's seasons, unordered: a queryset, for a list that pages (1 query)."""
    return Season.objects.filter(club=club)


def club_seasons(*, club: Club) -> list[Season]:
    return list(season_rows(club=club).order_by("-starts", "-id"))


def season_by_public_id(*, public_id: str) -> Season | None:
    return Season.objects.select_related("club").filter(public_id=public_id).first()


# Rows per page of a season's standings: a 500-player league on a phone in a few kilobytes.
SEASON_PAGE = 100


@dataclass(frozen=True)
class SeasonView:
    season: Season
    family: str  # "" for every family of the season together
    rows: list[SeasonStanding]  # this page's rows: ranked first, then those below the line
    pending: bool  # some change is not yet in these standings (the worker is catching up)
    as_of: datetime.datetime | None  # when the club's derived numbers were last complete
    page: int = 1
    pages: int = 1
    evenings: Sequence[datetime.date] = ()  # the season's evenings, for the picker
    evening: datetime.date | None = None  # shown as the standings stood after it; None: now

    @property
    def updating(self) -> bool:
        return self.pending

    @property
    def previous_page(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def next_page(self) -> int | None:
        return self.page + 1 if self.page < self.pages else None

    @property
    def ranked(self) -> list[SeasonStanding]:
        return [r for r in self.rows if r.ranked]

    @property
    def unranked(self) -> list[SeasonStanding]:
        return [r for r in self.rows if not r.ranked]

    @property
    def qualified(self) -> list[SeasonStanding]:
        """The ranked rows above the qualification line (all ranked rows without one)."""
        return [r for r in self.ranked if not self.season.qualify or qualifies(self.season, r)]

    @property
    def below_qualification(self) -> list[SeasonStanding]:
        return [r for r in self.ranked if self.season.qualify and not qualifies(self.season, r)]

    @property
    def lines(self) -> list[StandingLine]:
        """This page's rows, each with whether it qualifies."""
        return [StandingLine(r, qualifies(self.season, r)) for r in self.rows]


@dataclass(frozen=True)
class StandingLine:
    row: SeasonStanding
    qualifies: bool  # among the season's top ``qualify`` ranked players


def qualifies(season: Season, row: SeasonStanding) -> bool:
    """Among the season's top ``qualify`` ranked players (a tie at the line qualifies both)."""
    return bool(season.qualify) and row.ranked and row.rank <= season.qualify


def season_view(
    *, season: Season, family: str = "", page: int = 1, evening: datetime.date | None = None
) -> SeasonView:
    """One page of a season's standings as stored by the last rebuild, or as they stood after
    one of its ``evening``s (derived on reading); a fixed number of queries either way, whatever
    the size of the club (the tests pin them)."""
    if family not in season.families or len(season.families) == 1:
        family = ""
    days = evenings(season)
    if evening is not None and evening in days:
        return _evening_view(season, family, page, days, evening)
    standings = SeasonStanding.objects.filter(season=season, family=family)
    pages = max(1, -(-standings.count() // SEASON_PAGE))
    page = min(max(page, 1), pages)
    start = (page - 1) * SEASON_PAGE
    rows = list(
        standings.select_related("player").order_by("-ranked", "rank", "player__key")[
            start : start + SEASON_PAGE
        ]
    )
    rows.sort(key=standing_order)  # players sharing a rank by name, in the reader's language
    fresh = freshness(season.club_id)
    return SeasonView(season, family, rows, fresh.pending, fresh.as_of, page, pages, days)


def standing_order(row: SeasonStanding) -> tuple[bool, int, tuple[object, ...]]:
    """The standings' order: the ranked first, by rank, players sharing one by name."""
    return (not row.ranked, row.rank, by_name(row.player.name))


def _evening_view(
    season: Season, family: str, page: int, days: Sequence[datetime.date], evening: datetime.date
) -> SeasonView:
    rows = standings_after(season, family, evening)
    players = Player.objects.in_bulk([r.player_id for r in rows])
    for row in rows:
        row.player = players[row.player_id]
    rows.sort(key=standing_order)
    pages = max(1, -(-len(rows) // SEASON_PAGE))
    page = min(max(page, 1), pages)
    start = (page - 1) * SEASON_PAGE
    fresh = freshness(season.club_id)
    shown = rows[start : start + SEASON_PAGE]
    return SeasonView(season, family, shown, fresh.pending, fresh.as_of, page, pages, days, evening)


@dataclass(frozen=True)
class SeasonPage:
    """A season with its settings and one page of its standings."""

    season: Season
    settings: Mapping[str, Any]  # as ``SeasonSettings.from_mapping`` takes them
    view: SeasonView


def season_page(
    *, season: Season, family: str = "", page: int = 1, evening: datetime.date | None = None
) -> SeasonPage:
    """``season_view`` with the season's settings (no query more)."""
    view = season_view(season=season, family=family, page=page, evening=evening)
    return SeasonPage(season, current_season_settings(season), view)


@dataclass(frozen=True)
class FamilyRating:
    family: str
    rating: int  # as displayed
    mu: float
    sigma: float
    games: int

    @property
    def uncertainty(self) -> int:
        """σ on the rating's own scale (the ± beside it)."""
        return display_sigma(Rating(self.mu, self.sigma))


def player_ratings_summary(*, player: Player) -> list[FamilyRating]:
    """The player's current rating in each family he has played a rated game of (1 query)."""
    latest: dict[str, RatingEvent] = {}
    games: dict[str, int] = {}
    for event in RatingEvent.objects.filter(player=player).order_by("played_at", "game_id"):
        latest[event.family] = event
        games[event.family] = games.get(event.family, 0) + 1
    return [
        FamilyRating(family, display(Rating(e.mu, e.sigma)), e.mu, e.sigma, games[family])
        for family, e in sorted(latest.items())
    ]


def club_player(*, club: Club, pk: int) -> Player | None:
    return Player.objects.filter(club=club, pk=pk, merged_into=None).first()


@dataclass(frozen=True)
class RatingLine:
    """A game of a player's rating history, as a list names it."""

    event: RatingEvent
    game_name: str

    @property
    def rating(self) -> int:
        """After the game, as displayed."""
        return display(Rating(self.event.mu, self.event.sigma))

    @property
    def rating_before(self) -> int:
        return display(Rating(self.event.mu_before, self.event.sigma_before))


@dataclass(frozen=True)
class RatingPage:
    player: Player
    families: list[FamilyRating]  # his rating in each family played
    family: str  # the family shown in the chart and the history
    history: list[RatingEvent]  # newest first
    points: Sequence[tuple[object, int]]  # (when, rating as displayed) oldest first, for the chart
    seasons: list[SeasonStanding]  # his lines in the club's seasons (all families together)
    pending: bool = False  # some change is not yet in these numbers (the worker is catching up)
    as_of: datetime.datetime | None = None  # when the club's derived numbers were last complete

    @property
    def updating(self) -> bool:
        return self.pending

    @property
    def lines(self) -> list[RatingLine]:
        """The history, each game with the name a list of his games gives it."""
        return [RatingLine(e, game_name(e.game, player_id=self.player.pk)) for e in self.history]

    @property
    def own_seasons(self) -> list[SeasonStanding]:
        """His lines in his own club's seasons."""
        return [s for s in self.seasons if s.season.club_id == self.player.club_id]


def player_rating_page(*, player: Player, family: str = "") -> RatingPage:
    """A player's ratings: by family, the history and chart of one (the asked one, else the
    one he played most), and his season results (5 queries)."""
    families = player_ratings_summary(player=player)
    known = [f.family for f in families]
    if family not in known:
        family = max(families, key=lambda f: f.games).family if families else ""
    events = list(
        RatingEvent.objects.filter(player=player, family=family)
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("played_at", "game_id")
    )
    points = [(e.played_at, display(Rating(e.mu, e.sigma))) for e in events]
    seasons = list(
        SeasonStanding.objects.filter(player=player, family="")
        .select_related("season")
        .order_by("-season__starts")
    )
    fresh = freshness(player.club_id)
    return RatingPage(player, families, family, events[::-1], points, seasons, fresh.pending, fresh.as_of)


def game_name(game: Game, *, player_id: int | None = None) -> str:
    """What a list of games calls one beside its date: the event's table it was ("Autumn cup,
    round 2"), else who else sat there (its seats prefetched)."""
    if game.event_name:
        if game.event_round:
            return _("%(event)s, round %(round)s") % {"event": game.event_name, "round": game.event_round}
        return game.event_name
    others = [seat.name for seat in game.seats.all() if seat.player_id != player_id]
    return _("with %(players)s") % {"players": ", ".join(others)}


@dataclass(frozen=True)
class Chance:
    name: str
    player_id: int
    chance: float  # of winning, 0 to 1 (the players' sum to 1)
    rating: Rating

    @property
    def displayed(self) -> int:
        """The rating as displayed."""
        return display(self.rating)

    @property
    def uncertainty(self) -> int:
        """σ on the displayed rating's scale."""
        return display_sigma(self.rating)


@dataclass(frozen=True)
class GameChances:
    rated: bool  # someone at the table has a rating (else everyone is even)
    before_game: bool  # from the ratings the game was rated with (it is rated), not today's
    chances: list[Chance]
    game: Game
    pending: bool = False  # some change is not yet in the club's ratings (game_chances_page)
    as_of: datetime.datetime | None = None  # when the club's derived numbers were last complete


def game_chances(*, game: Game) -> GameChances:
    """Each seat's chance to win the club game by the club's ratings before it: the ratings the
    game was rated from, once it is rated; until then the players' current ratings (2 queries,
    3 once hands are recorded)."""
    seats = list(game.seats.all())
    # A game without hands was never rated: its page asks this before every first hand.
    rated_events = RatingEvent.objects.filter(game=game) if game.next_hand_number > 1 else []
    before = {e.player_id: Rating(e.mu_before, e.sigma_before) for e in rated_events}
    if before and all(s.player_id in before for s in seats):
        ratings, rated_game = before, True
    elif game.club is not None:
        ratings = ratings_of(club=game.club, family=game.family, player_ids=[s.player_id for s in seats])
        rated_game = False
    else:
        ratings, rated_game = {}, False
    shown = [ratings.get(s.player_id, START) for s in seats]
    rated = len(seats) >= 2 and len({(r.mu, r.sigma) for r in shown}) > 1
    chances = win_chances(shown) if len(seats) >= 2 else [1.0] * len(seats)
    return GameChances(
        rated,
        rated_game,
        [Chance(s.name, s.player_id, c, r) for s, c, r in zip(seats, chances, shown, strict=True)],
        game,
    )


def game_chances_page(*, game: Game) -> GameChances:
    """``game_chances`` with whether the club's ratings are catching up (``freshness``'s
    queries more)."""
    found = game_chances(game=game)
    fresh = freshness(game.club_id)
    return replace(found, pending=fresh.pending, as_of=fresh.as_of)


def club_opponents(*, player: Player) -> list[Player]:
    """The club's players he has sat with in a finished game, by name (1 query)."""
    if player.club_id is None:
        return []
    opponents = (
        Player.objects.filter(
            results__game__results__player=player, results__finished=True, club_id=player.club_id
        )
        .exclude(pk=player.pk)
        .distinct()
    )
    return sorted(opponents, key=lambda p: by_name(p.name))


@dataclass(frozen=True)
class MeetingRow:
    game: Game
    place: int
    other_place: int
    total: int
    other_total: int


@dataclass(frozen=True)
class RatingPair:
    """The two players' ratings in one family (None: the one who has not played it)."""

    player: FamilyRating | None
    other: FamilyRating | None

    @property
    def family(self) -> str:
        either = self.player if self.player is not None else self.other
        return either.family if either is not None else ""


@dataclass(frozen=True)
class HeadToHeadPage:
    player: Player
    other: Player
    record: HeadToHead
    meetings: list[MeetingRow]  # newest first
    ratings: list[tuple[FamilyRating | None, FamilyRating | None]]  # per family both played
    pending: bool = False  # some change is not yet in the club's ratings (versus_page)
    as_of: datetime.datetime | None = None  # when the club's derived numbers were last complete

    @property
    def rating_pairs(self) -> list[RatingPair]:
        return [RatingPair(mine, theirs) for mine, theirs in self.ratings]


def head_to_head_page(*, player: Player, other: Player) -> HeadToHeadPage:
    """Every finished game both played: who placed better, and their ratings side by side
    (3 queries)."""
    rows = list(
        Result.objects.filter(player__in=[player, other], finished=True, game__results__player=other)
        .filter(game__results__player=player)
        .select_related("game")
        .distinct()
        .order_by("-game__played_at", "game_id")
    )
    by_game: dict[int, dict[int, Result]] = defaultdict(dict)
    games: dict[int, Game] = {}
    for result in rows:
        by_game[result.game_id][result.player_id] = result
        games[result.game_id] = result.game
    meetings = [
        MeetingRow(
            games[g],
            seats[player.pk].place,
            seats[other.pk].place,
            seats[player.pk].total,
            seats[other.pk].total,
        )
        for g, seats in by_game.items()
        if player.pk in seats and other.pk in seats
    ]
    record = head_to_head([(m.place, m.other_place) for m in meetings])
    mine = {f.family: f for f in player_ratings_summary(player=player)}
    theirs = {f.family: f for f in player_ratings_summary(player=other)}
    ratings = [(mine.get(f), theirs.get(f)) for f in sorted(set(mine) | set(theirs))]
    return HeadToHeadPage(player, other, record, meetings, ratings)


def versus_page(*, player: Player, other: Player) -> HeadToHeadPage:
    """``head_to_head_page`` with whether their club's ratings are catching up (``freshness``'s
    queries more)."""
    page = head_to_head_page(player=player, other=other)
    fresh = freshness(player.club_id)
    return replace(page, pending=fresh.pending, as_of=fresh.as_of)


def qualifying_seasons(*, club: Club) -> list[tuple[int, str]]:
    """The club's seasons that draw a qualifying line: a final can be seeded from them."""
    return list(
        Season.objects.filter(club=club, qualify__gt=0).order_by("-starts", "-id").values_list("pk", "name")
    )
