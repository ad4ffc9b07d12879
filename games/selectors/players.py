"""Players as pages read them: suggestions for a new game, a club's roster, a player's page."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import BooleanField, Count, ExpressionWrapper, F, Max, Q, QuerySet

from games.models import Club, Player, Result, Seat
from games.text.names import loose_key
from scoring.families import family_info
from scoring.ranking import HeadToHead, head_to_head, relative_place

# The seats of games that were not deleted (a player's games count only those).
PRESENT = Q(seats__game__deleted_at=None)


def recent_players(
    *, club: Club | None, user: User | AnonymousUser, game_ids: Sequence[str], limit: int = 40
) -> list[str]:
    """Names to suggest for a new game's seats, most recently played first: the club's
    players, else the user's own roster, else the names of this browser's games (1 query)."""
    if club is not None or user.is_authenticated:
        players = (
            Player.objects.filter(club=club, merged_into=None)
            if club is not None
            else Player.objects.filter(club=None, owner_id=user.pk, merged_into=None)
        )
        return list(
            players.annotate(last=Max("seats__game__played_at"))
            .order_by(F("last").desc(nulls_last=True), "key")
            .values_list("name", flat=True)[:limit]
        )
    names: list[str] = []
    for name in (
        Seat.objects.filter(game__public_id__in=list(game_ids))
        .order_by("-game__updated_at", "position")
        .values_list("name", flat=True)[:200]
    ):
        if name not in names:
            names.append(name)
        if len(names) >= limit:
            break
    return names


@dataclass(frozen=True)
class RosterRow:
    player: Player
    games: int
    last_played: object  # datetime | None


def roster_players(*, club: Club, q: str = "") -> QuerySet[Player]:
    """The club's current players, each with ``games`` (a deleted game not counted),
    ``last_played`` and ``claimed`` (whether an account claimed him); ``q``: only the names
    containing it, accents and case aside. A queryset, for a list that pages."""
    players = Player.objects.filter(club=club, merged_into=None).annotate(
        games=Count("seats", filter=PRESENT),
        last_played=Max("seats__game__played_at", filter=PRESENT),
        claimed=ExpressionWrapper(Q(user__isnull=False), output_field=BooleanField()),
    )
    if q:
        players = players.filter(Q(name__icontains=q) | Q(loose_key__contains=loose_key(q)))
    return players


def club_roster(*, club: Club) -> list[RosterRow]:
    """The club's current players with their game counts, most recently played first (1
    query)."""
    players = (
        roster_players(club=club)
        .select_related("user")
        .order_by(F("last_played").desc(nulls_last=True), "key")
    )
    return [RosterRow(player=p, games=p.games, last_played=p.last_played) for p in players]  # type: ignore[attr-defined]


def own_roster(*, user: User) -> list[RosterRow]:
    """The players of a user's private games (1 query)."""
    players = (
        Player.objects.filter(club=None, owner=user, merged_into=None)
        .annotate(games=Count("seats"), last=Max("seats__game__played_at"))
        .order_by(F("last").desc(nulls_last=True), "key")
    )
    return [RosterRow(player=p, games=p.games, last_played=p.last) for p in players]  # type: ignore[attr-defined]


@dataclass(frozen=True)
class FamilyStats:
    family: str
    games: int
    wins: int
    average_place: float
    points_per_hand: float | None  # in this family's own direction (penalties or points won)


@dataclass(frozen=True)
class Opponent:
    player: Player
    record: HeadToHead


@dataclass(frozen=True)
class SummaryResult:
    """One of the player's results with how many played its game."""

    result: Result
    players: int


@dataclass(frozen=True)
class PlayerSummary:
    player: Player
    families: list[FamilyStats]
    games: int  # finished games
    wins: int
    average_place: float | None
    best: Result | None
    worst: Result | None
    opponents: list[Opponent]
    recent: list[Result]  # newest first, finished or not
    sizes: dict[int, int]  # game id -> number of players

    @property
    def club_slug(self) -> str:
        return self.player.club.slug if self.player.club else ""

    @property
    def claimed(self) -> bool:
        return self.player.user_id is not None

    def _sized(self, result: Result) -> SummaryResult:
        # A game missing from ``sizes`` had no other player in it.
        return SummaryResult(result=result, players=self.sizes.get(result.game_id, 1))

    @property
    def best_result(self) -> SummaryResult | None:
        return self._sized(self.best) if self.best else None

    @property
    def worst_result(self) -> SummaryResult | None:
        return self._sized(self.worst) if self.worst else None

    @property
    def recent_results(self) -> list[SummaryResult]:
        return [self._sized(r) for r in self.recent]


def _results(player: Player) -> QuerySet[Result]:
    return (
        Result.objects.filter(player=player)
        .select_related("game", "seat")
        .order_by("-game__played_at", "-game_id")
    )


def _per_hand(results: list[Result]) -> float | None:
    hands = sum(r.hands for r in results)
    return sum(r.total for r in results) / hands if hands else None


def player_summary(*, player: Player, recent: int = 20, opponents: int = 10) -> PlayerSummary:
    """Everything a player's page shows; statistics count finished games (2 queries)."""
    mine = list(_results(player))
    others = list(
        Result.objects.filter(game_id__in=[r.game_id for r in mine])
        .exclude(player=player)
        .select_related("player")
    )
    sizes: dict[int, int] = defaultdict(lambda: 1)
    for r in others:
        sizes[r.game_id] += 1
    finished = [r for r in mine if r.finished]
    per_family: dict[str, list[Result]] = defaultdict(list)
    for r in finished:
        per_family[r.game.family].append(r)
    families = [
        FamilyStats(
            family=family,
            games=len(rs),
            wins=sum(1 for r in rs if r.winner),
            average_place=sum(r.place for r in rs) / len(rs),
            points_per_hand=_per_hand(rs),
        )
        for family, rs in sorted(per_family.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    ]

    def merit(r: Result) -> tuple[float, int]:
        sign = 1 if family_info(r.game.family).lower_is_better else -1
        return relative_place(r.place, sizes[r.game_id]), sign * r.total

    ranked = sorted(finished, key=merit)
    my_place = {r.game_id: r.place for r in mine if r.finished}
    pairs: dict[int, list[tuple[int, int]]] = defaultdict(list)
    people: dict[int, Player] = {}
    for r in others:
        if r.game_id in my_place:
            pairs[r.player_id].append((my_place[r.game_id], r.place))
            people[r.player_id] = r.player
    frequent = sorted(pairs, key=lambda pid: (-len(pairs[pid]), people[pid].key))[:opponents]
    return PlayerSummary(
        player=player,
        families=families,
        games=len(finished),
        wins=sum(1 for r in finished if r.winner),
        average_place=sum(r.place for r in finished) / len(finished) if finished else None,
        best=ranked[0] if ranked else None,
        worst=ranked[-1] if len(ranked) > 1 else None,
        opponents=[Opponent(player=people[pid], record=head_to_head(pairs[pid])) for pid in frequent],
        recent=mine[:recent],
        sizes=dict(sizes),
    )


def similar_pairs(*, club: Club) -> list[tuple[Player, Player]]:
    """Pairs of the club's players whose names read alike (accents and case aside): likely
    one person typed two ways, offered to the organiser for a merge (1 query)."""
    by_loose: dict[str, list[Player]] = defaultdict(list)
    for player in Player.objects.filter(club=club, merged_into=None).order_by("key"):
        by_loose[player.loose_key].append(player)
    return [(group[0], other) for group in by_loose.values() for other in group[1:]]


def player_by_pk(*, pk: int) -> Player | None:
    """A player with his club and claimed account, and the player he was merged into (1 query)."""
    return Player.objects.select_related("club", "user", "merged_into__club").filter(pk=pk).first()
