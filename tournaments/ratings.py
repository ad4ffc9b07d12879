"""Player ratings per club and rule family: the database side of ``scoring.ratings``.

A club's finished games of one family are rated one after another in the order of
``game_key`` (when the game was played, then its id), and each player's rating after each
game is stored as a ``RatingEvent``. The events are derived: ``rebuild`` deletes them from a
point on and rates every game from there again, so a correction, an added or a back-dated game
gives exactly the numbers a full rebuild would.

The flow of a change (``tournaments.derived``): the write that changed a club game's results
calls ``mark_dirty(game)`` inside its own transaction (a ``RatingDirty`` row per club and family
remembers the earliest game to re-rate); the worker's job then calls ``refresh(club=...)``,
which rebuilds from there and removes the row. While a row exists, ``updating(club=...)`` is
true and the pages can say so.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

from django.db import IntegrityError, transaction
from django.db.models import (
    Case,
    DateTimeField,
    F,
    OuterRef,
    PositiveIntegerField,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)

from games.models import Club, Game, Player, Result
from scoring import ratings as scoring_ratings
from scoring.ratings import START, RatedGame, Rating
from tournaments.models import RatingDirty, RatingEvent

GameKey = tuple[datetime.datetime, int]


def game_key(game: Game) -> GameKey:
    """The order games are rated in: when the game was played, then its id. A back-dated game
    (an earlier ``played_at``) is rated in its place among the others."""
    return (game.played_at, game.pk)


def _games_from(since: GameKey) -> Q:
    """Games whose key is ``since`` or later (on Game)."""
    at, pk = since
    return Q(played_at__gt=at) | Q(played_at=at, pk__gte=pk)


def _events_from(since: GameKey) -> Q:
    """Events whose key is ``since`` or later (on RatingEvent)."""
    at, pk = since
    return Q(played_at__gt=at) | Q(played_at=at, game_id__gte=pk)


@dataclass(frozen=True, slots=True)
class _Played:
    key: GameKey
    players: tuple[int, ...]
    places: tuple[int, ...]


def _finished_games(*, club: Club, family: str, since: GameKey | None) -> list[_Played]:
    """The club's finished games of the family from ``since`` on, in key order: one query.

    A game is rated when every one of its results is finished and it has two players or more.
    A player seated twice in one game (two seats merged into one player) counts once, at his
    better place."""
    games = Game.objects.filter(club=club, family=family, deleted_at=None)
    if since is not None:
        games = games.filter(_games_from(since))
    rows = (
        Result.objects.filter(game__in=games)
        .order_by("game_id", "place", "player_id")
        .values_list("game_id", "game__played_at", "player_id", "place", "finished")
    )
    by_game: dict[int, tuple[datetime.datetime, dict[int, int], list[bool]]] = {}
    for game_id, played_at, player_id, place, finished in rows:
        entry = by_game.setdefault(game_id, (played_at, {}, []))
        places = entry[1]
        places[player_id] = min(place, places.get(player_id, place))
        entry[2].append(finished)
    played = [
        _Played((played_at, game_id), tuple(places), tuple(places.values()))
        for game_id, (played_at, places, finished) in by_game.items()
        if all(finished) and len(places) >= 2
    ]
    played.sort(key=lambda p: p.key)
    return played


def _events(club: Club, family: str, played: list[_Played], start: dict[int, Rating]) -> list[RatingEvent]:
    """The events of rating ``played`` in order from ``start`` (unsaved)."""
    steps = scoring_ratings.replay((RatedGame(p.key, p.players, p.places) for p in played), start)
    made = []
    for step in steps:
        played_at, game_id = cast(GameKey, step.key)
        made.append(
            RatingEvent(
                club=club,
                family=family,
                game_id=game_id,
                player_id=step.player,
                played_at=played_at,
                place=step.place,
                players=step.players,
                mu=step.after.mu,
                sigma=step.after.sigma,
                mu_before=step.before.mu,
                sigma_before=step.before.sigma,
            )
        )
    return made


def derive(*, club: Club, family: str) -> list[RatingEvent]:
    """Every rating event of the club's family as a full rebuild would store it, computed
    without writing (``manage.py rebuild_derived --check``)."""
    return _events(club, family, _finished_games(club=club, family=family, since=None), {})


def _stale(club: Club, family: str, since: GameKey | None) -> QuerySet[RatingEvent]:
    """The events a rebuild from ``since`` replaces: those of games from ``since`` on, and any
    event of a game being re-rated (in case it was rated at another time)."""
    events = RatingEvent.objects.filter(club=club, family=family)
    if since is None:
        return events
    rerated = Game.objects.filter(club=club, family=family).filter(_games_from(since))
    return events.filter(_events_from(since) | Q(game__in=rerated))


def _plan(club: Club, family: str, since: GameKey | None) -> tuple[int, list[RatingEvent]]:
    """The games rated and the new events of a rebuild from ``since``, computed by reading
    only: each player starts from his last event before ``since`` (or ``START``)."""
    played = _finished_games(club=club, family=family, since=since)
    start: dict[int, Rating] = {}
    if since is not None and played:
        involved = {player for p in played for player in p.players}
        stale = _stale(club, family, since).values("pk")
        earlier = (
            RatingEvent.objects.filter(club=club, family=family, player_id__in=involved)
            .exclude(pk__in=stale)
            .order_by("played_at", "game_id")
            .values_list("player_id", "mu", "sigma")
        )
        for player_id, mu, sigma in earlier:  # the last one per player wins
            start[player_id] = Rating(mu, sigma)
    return len(played), _events(club, family, played, start)


def _write(club: Club, family: str, since: GameKey | None, made: list[RatingEvent]) -> None:
    _stale(club, family, since).delete()
    RatingEvent.objects.bulk_create(made, batch_size=500)


def rebuild(*, club: Club, family: str, since: GameKey | None = None) -> int:
    """Re-rate the club's finished games of ``family`` from the game with key ``since`` on (all
    when None), in one transaction: if anything fails, the stored ratings stay as they were.
    Returns the number of games rated.

    Deletes the events of games from ``since`` on (and any event of a game being re-rated, in
    case it was rated at another time), starts each player from his last event before
    ``since`` (or ``START``), rates the games in key order and stores the new events."""
    with transaction.atomic():
        rated, made = _plan(club, family, since)
        _write(club, family, since, made)
        return rated


def _earlier(a: GameKey, b: GameKey | None) -> GameKey:
    return a if b is None or a < b else b


def _create_mark(club_id: int, family: str, since: GameKey) -> bool:
    """Create the club+family's mark; False when another write created it meanwhile. A
    savepoint, so that the caller's transaction survives the clash."""
    try:
        with transaction.atomic():
            RatingDirty.objects.create(club_id=club_id, family=family, since_at=since[0], since_game=since[1])
    except IntegrityError:
        return False
    return True


def _mark(club_id: int, family: str, since: GameKey) -> None:
    """Move the club+family's mark back to ``since`` (never forward), or create it. The move is
    one UPDATE, so two writes marking at once leave the earlier point; two creating at once meet
    at the unique constraint and the loser moves the winner's mark instead."""
    at, pk = since
    rows = RatingDirty.objects.filter(club_id=club_id, family=family)
    later = Q(since_at__gt=at) | Q(since_at=at, since_game__gt=pk)
    for _attempt in range(5):
        # Every mark counts a new version, even one that keeps the point: the worker, which
        # derives without holding the mark, then knows its reading is out of date.
        moved = rows.update(
            since_at=Case(When(later, then=Value(at)), default=F("since_at"), output_field=DateTimeField()),
            since_game=Case(
                When(later, then=Value(pk)), default=F("since_game"), output_field=PositiveIntegerField()
            ),
            version=F("version") + 1,
        )
        if moved:
            return
        if _create_mark(club_id, family, since):
            return
    raise RuntimeError(f"could not mark the ratings of club {club_id} ({family}) for a rebuild")


def mark_dirty(game: Game) -> None:
    """Note that the ratings of ``game``'s club and family must be rebuilt from this game on.
    Call it inside the transaction of any write that changed a club game's results.

    The game's club, family and date of play are read again from the database (the caller's copy
    may be stale, e.g. after a back-dating update). If the game was rated before at another
    time (moved later) or for another club or family, that earlier point is marked too, so the
    games between are re-rated without it."""
    current = Game.objects.filter(pk=game.pk).values_list("club_id", "family", "played_at").first()
    club_id, family, played_at = (
        current if current is not None else (game.club_id, game.family, game.played_at)
    )
    points: dict[tuple[int, str], GameKey] = {}
    if club_id is not None:
        points[(club_id, family)] = (played_at, game.pk)
    rated = (
        RatingEvent.objects.filter(game_id=game.pk)
        .order_by()
        .values_list("club_id", "family", "played_at")
        .distinct()
    )
    for rated_club, rated_family, played_at in rated:
        where = (rated_club, rated_family)
        points[where] = _earlier((played_at, game.pk), points.get(where))
    for (mark_club, mark_family), since in points.items():
        _mark(mark_club, mark_family, since)


def refresh(
    *,
    club: Club,
    after: Callable[[Club, list[str]], None] | None = None,
    rebuilt: Callable[[str, GameKey], None] | None = None,
) -> list[str]:
    """Rebuild the club's ratings that ``mark_dirty`` marked, each family in its own
    transaction, and remove the marks. Returns the families rebuilt.

    The mark is read, not locked, while the new events are derived, so a write marking meanwhile
    never waits for that (one worker at a time applies a club's marks: ``tournaments.derived``);
    the events are swapped and the mark removed in one short transaction, only if no write
    marked since (the mark's version), else the family is derived again from the mark's point.
    ``rebuilt(family, since)`` runs inside each rebuild's transaction (what
    derives from the ratings is marked there); ``after(club, families)``, when given, runs once
    the ratings are rebuilt (only when some were)."""
    families: list[str] = []
    for family in RatingDirty.objects.filter(club=club).order_by("family").values_list("family", flat=True):
        while True:
            mark = RatingDirty.objects.filter(club=club, family=family).first()
            if mark is None:
                break
            since = (mark.since_at, mark.since_game)
            # Derived by reading only, outside the transaction: the write lock (all of SQLite's)
            # is held just while the events are swapped, and only if no write marked meanwhile.
            _rated, made = _plan(club, family, since)
            with transaction.atomic():
                current = RatingDirty.objects.select_for_update().filter(pk=mark.pk, version=mark.version)
                if not current.exists():
                    continue  # a write marked meanwhile: derive again from its point
                _write(club, family, since, made)
                if rebuilt is not None:
                    rebuilt(family, since)
                current.delete()
            families.append(family)
            break
    if after is not None and families:
        after(club, families)
    return families


def rebuild_club(*, club: Club, families: Iterable[str] | None = None) -> dict[str, int]:
    """A full rebuild of every family the club has games or ratings of (or of ``families``),
    each in one transaction that also removes the family's mark. Returns games rated per
    family."""
    if families is None:
        found = set(Game.objects.filter(club=club).order_by().values_list("family", flat=True).distinct())
        found |= set(
            RatingEvent.objects.filter(club=club).order_by().values_list("family", flat=True).distinct()
        )
        found |= set(RatingDirty.objects.filter(club=club).values_list("family", flat=True))
        families = sorted(found)
    rated: dict[str, int] = {}
    for family in families:
        with transaction.atomic():
            list(RatingDirty.objects.select_for_update().filter(club=club, family=family))
            rated[family] = rebuild(club=club, family=family, since=None)
            RatingDirty.objects.filter(club=club, family=family).delete()
    return rated


def ratings_of(*, club: Club, family: str, player_ids: Iterable[int]) -> dict[int, Rating]:
    """Each player's current rating in the club's family (``START`` for one never rated): his
    latest event, found in one query."""
    ids = list(player_ids)
    latest = (
        RatingEvent.objects.filter(club=club, family=family, player_id=OuterRef("player_id"))
        .order_by("-played_at", "-game_id")
        .values("pk")[:1]
    )
    found = {
        player_id: Rating(mu, sigma)
        for player_id, mu, sigma in RatingEvent.objects.filter(
            club=club, family=family, player_id__in=ids, pk=Subquery(latest)
        ).values_list("player_id", "mu", "sigma")
    }
    return {player_id: found.get(player_id, START) for player_id in ids}


def history(*, player: Player, family: str) -> list[RatingEvent]:
    """The player's rating after each of his rated games of the family, oldest first."""
    return list(RatingEvent.objects.filter(player=player, family=family).order_by("played_at", "game_id"))


def updating(*, club: Club) -> bool:
    """Whether some of the club's ratings wait for a rebuild."""
    return RatingDirty.objects.filter(club=club).exists()
