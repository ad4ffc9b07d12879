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
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

from django.db import IntegrityError, connection, transaction
from django.db.models import (
    Case,
    DateTimeField,
    F,
    Field,
    Model,
    OuterRef,
    PositiveIntegerField,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.utils import timezone

from games.models import Club, Game, Player, Result
from games.sheets import rows as sql
from scoring import ratings as scoring_ratings
from scoring.ratings import START, RatedGame, Rating
from tournaments.faults import checkpoint
from tournaments.models import CurrentRating, RatingDirty, RatingEvent

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
class Played:
    key: GameKey
    players: tuple[int, ...]
    places: tuple[int, ...]


def finished_games(games: QuerySet[Game]) -> list[Played]:
    """Of ``games``, the ones to rate, in key order, with their players' places: one query.

    A game is rated when every one of its results is finished and it has two players or more.
    A player seated twice in one game (two seats merged into one player) counts once, at his
    better place."""
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
        Played((played_at, game_id), tuple(places), tuple(places.values()))
        for game_id, (played_at, places, finished) in by_game.items()
        if all(finished) and len(places) >= 2
    ]
    played.sort(key=lambda p: p.key)
    return played


def _finished_games(*, club: Club, family: str, since: GameKey | None) -> list[Played]:
    """The club's finished games of the family from ``since`` on, in key order."""
    games = Game.objects.filter(club=club, family=family, deleted_at=None)
    if since is not None:
        games = games.filter(_games_from(since))
    return finished_games(games)


def _events(club: Club, family: str, played: list[Played], start: dict[int, Rating]) -> list[RatingEvent]:
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


# The fields of an event a rebuild may change (its game and player are what it is matched by),
# and of those its rating numbers: all that a re-rating of a later game changes, and columns no
# index covers, so rewriting only them keeps the swap (and SQLite's write lock) short.
EVENT_FIELDS = ("played_at", "place", "players", "mu", "sigma", "mu_before", "sigma_before")
_NUMBERS = ("mu", "sigma", "mu_before", "sigma_before")


@dataclass
class _Swap:
    """What a rebuild from a point writes, found by comparing the derived events with the
    stored ones: a correction that keeps a game's places derives the same events and writes
    nothing, and one that moves them rewrites only the events that came out different."""

    gone: list[int]  # stored events no longer derived (pks)
    changed: list[RatingEvent]  # derived differently in their game's facts (with the stored pk)
    rerated: list[RatingEvent]  # derived differently in _NUMBERS only (with the stored pk)
    new: list[RatingEvent]  # derived, not stored
    first: GameKey | None  # the earliest event that differs, old or new (None: none does)
    moved: set[int] = field(default_factory=set)  # the players of the events that differ
    updates: list[Update] = field(default_factory=list)  # ``changed`` and ``rerated`` (prepare())

    def prepare(self) -> None:
        """Make the UPDATEs ready before the write transaction, which then only runs them."""
        self.updates = [
            prepare_update(RatingEvent, fields, rows)
            for fields, rows in ((EVENT_FIELDS, self.changed), (_NUMBERS, self.rerated))
            if rows
        ]

    def __bool__(self) -> bool:
        return self.first is not None


def _diff(made: list[RatingEvent], stored: Iterable[tuple[object, ...]]) -> _Swap:
    by_key: dict[tuple[object, object], RatingEvent] = {(e.game_id, e.player_id): e for e in made}
    gone: list[int] = []
    changed: list[RatingEvent] = []
    rerated: list[RatingEvent] = []
    moved: set[int] = set()
    first: GameKey | None = None
    facts = len(EVENT_FIELDS) - len(_NUMBERS)
    for pk, game_id, player_id, *values in stored:
        event = by_key.pop((game_id, player_id), None)
        old = cast(GameKey, (values[0], game_id))
        if event is None:
            gone.append(cast(int, pk))
            moved.add(cast(int, player_id))
            first = _earlier(old, first)
            continue
        derived = tuple(getattr(event, f) for f in EVENT_FIELDS)
        if derived != tuple(values):
            event.pk = cast(int, pk)
            (rerated if derived[:facts] == tuple(values[:facts]) else changed).append(event)
            moved.add(event.player_id)
            first = _earlier(min(old, (event.played_at, event.game_id)), first)
    new = list(by_key.values())
    for event in new:
        first = _earlier((event.played_at, event.game_id), first)
        moved.add(event.player_id)
    return _Swap(gone, changed, rerated, new, first, moved)


def _plan(club: Club, family: str, since: GameKey | None) -> tuple[int, _Swap]:
    """The games rated and what a rebuild from ``since`` writes, computed by reading only: each
    player starts from his last event before ``since`` (or ``START``)."""
    played = _finished_games(club=club, family=family, since=since)
    start: dict[int, Rating] = {}
    stale = _stale(club, family, since)
    if since is not None and played:
        involved = {player for p in played for player in p.players}
        earlier = (
            RatingEvent.objects.filter(club=club, family=family, player_id__in=involved)
            .exclude(pk__in=stale.values("pk"))
            .order_by("played_at", "game_id")
            .values_list("player_id", "mu", "sigma")
        )
        for player_id, mu, sigma in earlier:  # the last one per player wins
            start[player_id] = Rating(mu, sigma)
    made = _events(club, family, played, start)
    stored = stale.order_by().values_list("pk", "game_id", "player_id", *EVENT_FIELDS)
    swap = _diff(made, list(stored))
    swap.prepare()
    return len(played), swap


@cache
def _update_sql(model: type[Model], fields: tuple[str, ...]) -> str:
    columns = ", ".join(f"{sql.column(model, f)} = %s" for f in fields)
    return f"UPDATE {sql.table(model)} SET {columns} WHERE {sql.column(model, 'id')} = %s"


Update = tuple[str, list[list[Any]]]  # an UPDATE statement and the values of each row


def prepare_update(model: type[Model], fields: tuple[str, ...], objects: Sequence[Model]) -> Update:
    """The UPDATE that saves ``fields`` of ``objects`` (each with its pk), its values made ready
    for the database now, so that a write transaction only runs it."""
    prepared = [cast(Field[Any, Any], model._meta.get_field(f)) for f in fields]
    values = [
        [column.get_db_prep_save(getattr(o, column.attname), connection) for column in prepared] + [o.pk]
        for o in objects
    ]
    return _update_sql(model, fields), values


def run_update(update: Update) -> None:
    """One prepared UPDATE run for all its rows, where ``bulk_update`` would build a CASE per
    field and row."""
    statement, values = update
    with connection.cursor() as cursor:
        for at in range(0, len(values), 2000):
            cursor.executemany(statement, values[at : at + 2000])


def update_rows(model: type[Model], fields: tuple[str, ...], objects: Sequence[Model]) -> None:
    """Save ``fields`` of ``objects`` (each with its pk)."""
    if objects:
        run_update(prepare_update(model, fields, objects))


def _write(club: Club, family: str, since: GameKey | None, swap: _Swap) -> None:
    """Write ``swap``: only the events that differ (call inside the rebuild's transaction)."""
    for at in range(0, len(swap.gone), 500):
        RatingEvent.objects.filter(pk__in=swap.gone[at : at + 500]).delete()
    for update in swap.updates:
        run_update(update)
    RatingEvent.objects.bulk_create(swap.new, batch_size=500)


def rebuild(*, club: Club, family: str, since: GameKey | None = None) -> int:
    """Re-rate the club's finished games of ``family`` from the game with key ``since`` on (all
    when None), in one transaction: if anything fails, the stored ratings stay as they were.
    Returns the number of games rated.

    Deletes the events of games from ``since`` on (and any event of a game being re-rated, in
    case it was rated at another time), starts each player from his last event before
    ``since`` (or ``START``), rates the games in key order and stores the new events."""
    with transaction.atomic():
        rated, swap = _plan(club, family, since)
        _write(club, family, since, swap)
        keep_current(club=club, family=family)
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


def mark_dirty(game: Game) -> dict[tuple[int, str], list[GameKey]]:
    """Note that the ratings of ``game``'s club and family must be rebuilt from this game on.
    Call it inside the transaction of any write that changed a club game's results.

    The game's club, family and date of play are read again from the database (the caller's copy
    may be stale, e.g. after a back-dating update). If the game was rated before at another
    time (moved later) or for another club or family, that earlier point is marked too, so the
    games between are re-rated without it. Returns where the game is and was rated: per club
    and family, its keys (now, and when rated before)."""
    current = Game.objects.filter(pk=game.pk).values_list("club_id", "family", "played_at").first()
    club_id, family, played_at = (
        current if current is not None else (game.club_id, game.family, game.played_at)
    )
    points: dict[tuple[int, str], GameKey] = {}
    keys: dict[tuple[int, str], list[GameKey]] = {}
    if club_id is not None:
        points[(club_id, family)] = (played_at, game.pk)
        keys[(club_id, family)] = [(played_at, game.pk)]
    rated = (
        RatingEvent.objects.filter(game_id=game.pk)
        .order_by()
        .values_list("club_id", "family", "played_at")
        .distinct()
    )
    for rated_club, rated_family, played_at in rated:
        where = (rated_club, rated_family)
        points[where] = _earlier((played_at, game.pk), points.get(where))
        keys.setdefault(where, []).append((played_at, game.pk))
    for (mark_club, mark_family), since in points.items():
        _mark(mark_club, mark_family, since)
    return keys


def refresh(
    *,
    club: Club,
    after: Callable[[Club, list[str]], None] | None = None,
    rebuilt: Callable[[str, GameKey, set[int]], None] | None = None,
) -> list[str]:
    """Rebuild the club's ratings that ``mark_dirty`` marked, each family in its own
    transaction, and remove the marks. Returns the families rebuilt.

    The mark is read, not locked, while the new events are derived, so a write marking meanwhile
    never waits for that (one worker at a time applies a club's marks: ``tournaments.derived``);
    the events are swapped and the mark removed in one short transaction, only if no write
    marked since (the mark's version), else the family is derived again from the mark's point.
    Only the events that came out different are written (``_Swap``), and
    ``rebuilt(family, first, players)`` runs inside that transaction with the earliest of them
    and their players (what derives from the ratings is marked there), not at all when none
    differs; the rating list is rewritten in that transaction too, before the mark goes;
    ``after(club, families)``, when given, runs once the ratings are rebuilt (only when some
    were)."""
    families: list[str] = []
    for family in RatingDirty.objects.filter(club=club).order_by("family").values_list("family", flat=True):
        while True:
            mark = RatingDirty.objects.filter(club=club, family=family).first()
            if mark is None:
                break
            since = (mark.since_at, mark.since_game)
            # Derived by reading only, outside the transaction: the write lock (all of SQLite's)
            # is held just while the events are swapped, and only if no write marked meanwhile.
            _rated, swap = _plan(club, family, since)
            with transaction.atomic():
                current = RatingDirty.objects.select_for_update().filter(pk=mark.pk, version=mark.version)
                if not current.exists():
                    continue  # a write marked meanwhile: derive again from its point
                _write(club, family, since, swap)
                if rebuilt is not None and swap.first is not None:
                    rebuilt(family, swap.first, swap.moved)
                if swap:  # the same events make the same list
                    # Events only added or re-rated: the list of their players alone moves.
                    # Written before the mark goes, in its transaction: no moment leaves the
                    # list on the old numbers with nothing marked to bring it up to date.
                    kept = swap.moved if not (swap.gone or swap.changed) else None
                    keep_current(club=club, family=family, players=kept)
                checkpoint("rating-commit")
                current.delete()
            checkpoint("ratings")
            families.append(family)
            break
    if after is not None and families:
        after(club, families)
    return families


EventLine = tuple[int, datetime.datetime, float, float, float, float]  # player, played_at, mu, σ, before


def current_lines(
    *,
    club_id: int,
    family: str,
    events: Sequence[EventLine],
    model: type[CurrentRating] = CurrentRating,
    evening: datetime.date | None = None,
) -> list[CurrentRating]:
    """Each player's rating list line from the family's events in rating order (unsaved; the
    migration that adds the lines passes its own ``model``). ``evening``: the club's latest
    evening, when ``events`` are only some players' (by default, the latest day of them)."""
    lines: dict[int, CurrentRating] = {}
    for player_id, played_at, mu, sigma, _mu_before, _sigma_before in events:
        line = lines.get(player_id)
        if line is None:
            line = lines[player_id] = model(club_id=club_id, family=family, player_id=player_id, games=0)
        line.mu, line.sigma, line.last_played = mu, sigma, played_at
        line.games += 1
    if not lines:
        return []
    zone = timezone.get_current_timezone()
    if evening is None:
        evening = max(line.last_played for line in lines.values()).astimezone(zone).date()
    since = datetime.datetime.combine(evening, datetime.time.min, tzinfo=zone)
    for line in lines.values():
        line.evening = evening
    for player_id, played_at, _mu, _sigma, mu_before, sigma_before in events:
        if played_at >= since:
            line = lines[player_id]
            if not line.evening_games:
                line.evening_mu, line.evening_sigma = mu_before, sigma_before
            line.evening_games += 1
    return list(lines.values())


def stored_lines(
    *, club_id: int, family: str, model: type[RatingEvent] = RatingEvent, players: Iterable[int] | None = None
) -> list[EventLine]:
    events = model.objects.filter(club_id=club_id, family=family).order_by("played_at", "game_id")
    if players is not None:
        events = events.filter(player_id__in=list(players))
    return list(events.values_list("player_id", "played_at", "mu", "sigma", "mu_before", "sigma_before"))


def keep_current(*, club: Club, family: str, players: Collection[int] | None = None) -> None:
    """Rewrite the family's rating list lines from its stored events, only the lines that
    differ; inside the transaction that wrote the events (``refresh``, ``rebuild``), so the
    list never trails them.

    ``players``: only their events were added to or re-rated, none removed nor moved in time;
    their lines alone are rewritten, unless those events begin a new evening (every line
    shows what its player did on the club's latest evening)."""
    rows = CurrentRating.objects.filter(club=club, family=family)
    if players is not None:
        evening = rows.values_list("evening", flat=True).first()
        events = stored_lines(club_id=club.pk, family=family, players=players)
        zone = timezone.get_current_timezone()
        if evening is not None and all(e[1].astimezone(zone).date() <= evening for e in events):
            lines = current_lines(club_id=club.pk, family=family, events=events, evening=evening)
            _swap_lines(rows.filter(player_id__in=list(players)), lines)
            return
    _swap_lines(
        rows,
        current_lines(club_id=club.pk, family=family, events=stored_lines(club_id=club.pk, family=family)),
    )


# The fields of a rating list line that its events decide (its club, family and player are
# what it is matched by).
LIST_FIELDS = (
    "mu",
    "sigma",
    "games",
    "last_played",
    "evening",
    "evening_mu",
    "evening_sigma",
    "evening_games",
)


@dataclass
class Differing[M: Model]:
    """How ``rows`` differ from the stored rows they replace, matched by their keys (``by``):
    the rows to insert, the rows to update (each given its stored pk) and the pks to delete."""

    new: list[M]
    changed: list[M]
    gone: list[int]


def differing[M: Model](
    stored: QuerySet[M], rows: Iterable[M], by: tuple[str, ...], fields: tuple[str, ...]
) -> Differing[M]:
    """Compare ``rows`` with ``stored`` (one query) on ``fields``."""
    kept = {
        tuple(values[1 : 1 + len(by)]): (values[0], tuple(values[1 + len(by) :]))
        for values in stored.order_by().values_list("pk", *by, *fields)
    }
    new: list[M] = []
    changed: list[M] = []
    for row in rows:
        old = kept.pop(tuple(getattr(row, f) for f in by), None)
        if old is None:
            new.append(row)
        elif old[1] != tuple(getattr(row, f) for f in fields):
            row.pk = old[0]
            changed.append(row)
    return Differing(new, changed, [cast(int, pk) for pk, _values in kept.values()])


def _swap_lines(rows: QuerySet[CurrentRating], lines: Sequence[CurrentRating]) -> None:
    """Put ``lines`` in place of ``rows``: compared first, then only the lines that differ
    written (atomically, also when called outside a transaction)."""
    found = differing(rows, lines, ("player_id",), LIST_FIELDS)
    update = prepare_update(CurrentRating, LIST_FIELDS, found.changed)
    with transaction.atomic():
        CurrentRating.objects.filter(pk__in=found.gone).delete()
        run_update(update)
        CurrentRating.objects.bulk_create(found.new, batch_size=500)


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
