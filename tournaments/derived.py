"""What depends on what: the one list of the numbers derived across games (ratings per club and
family, season standings) and of the recorded changes that move them.

Every write that can move such a number calls one of the ``*_changed`` functions inside its
own transaction. They only mark what is out of date (``RatingDirty`` for a family's ratings
from a game on, ``SeasonDirty`` for a season) and queue ``apply_club`` (below) once
the write commits; the write never rebuilds anything that spans games. The worker's job reads
the marks, so it is idempotent and a burst of changes coalesces: the ratings are re-rated once
from the earliest game marked, then every season whose numbers that moved is brought up to date.
Both are derived by reading only, outside any write transaction, and written in one short
transaction each, which writes only the rows that came out different.

What moves what:

- a club game's results (a hand recorded, corrected, deleted, undone or filled in, the game
  ended, reopened, deleted or back-dated): the family's ratings from that game on, and the
  seasons of its family containing its day (and the day it was rated at before); a game
  finished for the first time marks its seasons with its id, so the worker can add it to
  their stored lines (``tournaments.seasons.updated_standings``) instead of deriving them;
- a club game's date of play (changed, or the change undone): the family's ratings from the
  earlier of the two dates on, and the seasons containing either day;
- seats moved between players (a merge and its undo): the ratings of each family from the
  earliest moved game on, and the seasons containing the moved games;
- ratings re-rated from a game on: only if some rating event came out different, every season
  of the family that ends on the earliest such event's day or later (the ratings shown at its
  end), marked with the players whose events differ (their rating column is read again); a
  correction that keeps a game's places re-rates to the same numbers and moves no season
  through its ratings;
- a season's settings (created or edited): that season;
- a tournament (its last round confirmed, its settings changed): the seasons that count its
  family and contain its date, before and after the change;
- an imported club: everything of that club.

The worker's job (Django's tasks framework; ``manage.py worker`` runs it) carries only a
club's id and reads what to do from the marks, so running it twice, or after another job
already did the work, changes nothing. A job that fails leaves the marks in place, notes the
failure on the club's ``DerivedState`` and queues itself again after a growing wait; the failed
try stays in the task results (admin), and other clubs' jobs run meanwhile. A job that finds
another worker at the club queues itself again shortly, so the marks written during that
worker's pass are not left behind.

A job whose worker died is taken up again by the others: the job holds a lease on the club
(``DerivedState.lease_until``) that its worker renews, and every worker sweeps (``sweep``),
queueing each club that has marks, no job queued and no live lease. A mark is removed only in
the transaction that writes the last number depending on it (or marks those numbers), so a
worker killed anywhere leaves each number as it should be or still marked, and the club whole
again within ``whole_within()`` and its job's time.
"""

from __future__ import annotations

import datetime
import logging
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Min
from django.tasks import TaskContext, TaskResultStatus, task
from django.utils import timezone
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from games.models import Club, Game
from tournaments import signals
from tournaments.faults import checkpoint
from tournaments.models import (
    CurrentRating,
    DerivedState,
    RatingDirty,
    RatingEvent,
    Season,
    SeasonDirty,
    SeasonStanding,
    Tournament,
)
from tournaments.rating_history import (
    EVENT_FIELDS,
    LIST_FIELDS,
    GameKey,
    _mark,
    current_lines,
    derive,
    mark_dirty,
    refresh,
)
from tournaments.seasons import (
    LINE_FIELDS,
    EventKey,
    derived_standings,
    standing_rows,
    store_standings,
    updated_standings,
)

# The first key of the advisory lock a worker takes per club (PostgreSQL): one worker at a
# time applies a club's marks, the others skip that club.
LOCK_SPACE = 27_001

log = logging.getLogger(__name__)


def schedule(club_id: int) -> None:
    """Queue the club's job once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(apply_club.enqueue, club_id))


# ---------------------------------------------------------------------- the changes


def game_changed(game: Game, *, finished: bool) -> None:
    """A club game's results were rewritten (or the game deleted). A game under way that was
    never rated moves nothing yet: its hands are its own."""
    if game.club_id is None:
        return
    if game.pk is None:  # told after the delete: re-rate from its time on
        _mark(game.club_id, game.family, (game.played_at, 0))
        _mark_seasons_on(game.club_id, game.family, [game.played_at])
        schedule(game.club_id)
        return
    rated = RatingEvent.objects.filter(game=game).exists()
    if not finished and not rated:
        return
    # A game finished that never counted anywhere only adds to its seasons.
    first_time = game.pk if finished and not rated else None
    for (club_id, family), keys in mark_dirty(game).items():
        _mark_seasons_on(club_id, family, [at for at, _pk in keys], finished_game=first_time)
    table = getattr(game, "tournament_table", None)
    if table is not None:
        _mark_tournament(table.round.tournament)
    schedule(game.club_id)


def game_dated(game: Game, *, before: datetime.datetime, after: datetime.datetime, finished: bool) -> None:
    """A club game's date of play changed from ``before`` to ``after``: its family's ratings
    from the earlier of the two on, and the seasons containing either day. A game not finished
    counts nowhere yet."""
    if game.club_id is None or not finished:
        return
    _mark(game.club_id, game.family, (min(before, after), game.pk))
    _mark_seasons_on(game.club_id, game.family, [before, after])
    schedule(game.club_id)


def games_moved(*, club_id: int, game_ids: Iterable[int]) -> None:
    """Seats of these games moved from one player to another (a merge or its undo)."""
    game_ids = list(game_ids)
    firsts = (
        Game.objects.filter(club_id=club_id, pk__in=list(game_ids))
        .values("family")
        .annotate(first=Min("played_at"))
        .values_list("family", "first")
    )
    for family, first in firsts:
        first_pk = (
            Game.objects.filter(club_id=club_id, family=family, pk__in=list(game_ids), played_at=first)
            .order_by("pk")
            .values_list("pk", flat=True)
            .first()
        )
        assert first_pk is not None
        _mark(club_id, family, (first, first_pk))
    moved: dict[str, list[datetime.datetime]] = {}
    for family, at in Game.objects.filter(club_id=club_id, pk__in=list(game_ids)).values_list(
        "family", "played_at"
    ):
        moved.setdefault(family, []).append(at)
    for family, times in moved.items():
        _mark_seasons_on(club_id, family, times)
    schedule(club_id)


def season_changed(season: Season) -> None:
    """A season was created or its settings changed."""
    SeasonDirty.objects.create(season=season, club_id=season.club_id)
    schedule(season.club_id)


def tournament_changed(tournament: Tournament, *, before: Tournament | None = None) -> None:
    """A tournament's last round was confirmed or its settings changed (``before``: as they
    were, so the seasons it left are rebuilt too)."""
    _mark_tournament(tournament)
    if before is not None:
        _mark_tournament(before)
    schedule(tournament.club_id)
    signals.tournament_changed.send(sender=Tournament, tournament=tournament, before=before)


def club_changed(club: Club) -> None:
    """Everything of the club from the start (an import)."""
    families = set(Game.objects.filter(club=club).order_by().values_list("family", flat=True).distinct())
    for family in families:
        first = (
            Game.objects.filter(club=club, family=family)
            .order_by("played_at", "pk")
            .values_list("played_at", "pk")
            .first()
        )
        assert first is not None
        _mark(club.pk, family, first)
    SeasonDirty.objects.bulk_create(
        [SeasonDirty(season=s, club=club) for s in Season.objects.filter(club=club)]
    )
    schedule(club.pk)


def _mark_tournament(tournament: Tournament) -> None:
    seasons = Season.objects.filter(
        club_id=tournament.club_id, starts__lte=tournament.date, ends__gte=tournament.date
    )
    SeasonDirty.objects.bulk_create(
        [
            SeasonDirty(season=s, club_id=tournament.club_id)
            for s in seasons
            if tournament.family in s.families
        ]
    )


def _mark_seasons_on(
    club_id: int, family: str, times: Iterable[datetime.datetime], *, finished_game: int | None = None
) -> None:
    """The seasons of ``family`` a game played at one of ``times`` is in (its places, its
    seats, whether it counts): one query. ``finished_game``: all that moved is that this game
    was finished for the first time."""
    days = {timezone.localtime(at).date() for at in times}
    if not days:
        return
    seasons = Season.objects.filter(club_id=club_id, starts__lte=max(days), ends__gte=min(days))
    SeasonDirty.objects.bulk_create(
        [
            SeasonDirty(season=s, club_id=club_id, finished_game=finished_game)
            for s in seasons
            if family in s.families and any(s.starts <= day <= s.ends for day in days)
        ]
    )


def _mark_seasons_from(club_id: int, family: str, since: GameKey, players: Iterable[int]) -> None:
    """The seasons whose rating column a re-rating of ``family`` moves, ``since`` being the
    earliest rating event that came out different and ``players`` those whose events did:
    the seasons ending on its day or later (a season's column shows each player's rating after
    his last game up to its end), their column of those players."""
    day = timezone.localtime(since[0]).date()
    seasons = Season.objects.filter(club_id=club_id, ends__gte=day)
    moved = sorted(set(players))
    SeasonDirty.objects.bulk_create(
        [SeasonDirty(season=s, club_id=club_id, rated_players=moved) for s in seasons if family in s.families]
    )


# ---------------------------------------------------------------------- the worker's side


@dataclass(frozen=True)
class Applied:
    families: list[str]  # re-rated
    seasons: list[int]  # rebuilt


def try_lock(key: int, space: int = LOCK_SPACE) -> bool:
    """Take the worker's advisory lock on one club (or, in another space, one federation)."""
    if connection.vendor != "postgresql":
        return True  # SQLite runs one write at a time anyway, and the job is idempotent
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [space, key])
        return bool(cursor.fetchone()[0])


def unlock(key: int, space: int = LOCK_SPACE) -> None:
    if connection.vendor == "postgresql":
        reconnect_if_broken()
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [space, key])
        except DatabaseError:
            log.warning("could not unlock %s in %s: the lock goes with the connection", key, space)


def reconnect_if_broken() -> None:
    """Drop a connection an error left unusable (the database restarted, the backend was
    ended), so the next query opens a new one; inside a transaction that is its owner's call."""
    if not connection.in_atomic_block:
        connection.close_if_unusable_or_obsolete()


# ---------------------------------------------------------------------- leases


# The club jobs this process is at, each with its lease's token (the task result's id): the
# worker's sweeper thread renews their leases (``renew``).
_held: dict[int, str] = {}


def lease_time() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.DERIVED_LEASE_SECONDS)


def sweep_every() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.DERIVED_SWEEP_SECONDS)


def whole_within() -> datetime.timedelta:
    """How long after its worker dies a club's job is queued again at the latest: its lease
    lapses (renewed every third of it, so at most a lease after the last renewal), then the
    next sweep of any worker queues it. The job's own time comes on top."""
    return lease_time() + sweep_every()


def is_stuck(pending_since: datetime.datetime, alive: bool, now: datetime.datetime) -> bool:
    """Changes waiting longer than a dead worker's job takes to be queued again, and no live
    job at them: what /healthz and the admin call stuck."""
    return pending_since < now - whole_within() and not alive


def _take_lease(club_id: int, token: str) -> None:
    _held[club_id] = token
    DerivedState.objects.update_or_create(
        club_id=club_id, defaults={"lease_task": token, "lease_until": timezone.now() + lease_time()}
    )


def _end_lease(club_id: int, token: str) -> None:
    """Give the lease back; a database that cannot be reached lets it lapse instead."""
    _held.pop(club_id, None)
    reconnect_if_broken()
    try:
        DerivedState.objects.filter(club_id=club_id, lease_task=token).update(lease_until=None)
    except DatabaseError:
        log.warning("could not end the lease of club %s: it lapses by itself", club_id)


def renew() -> None:
    """Renew the leases of the jobs this process is at (the worker's sweeper thread)."""
    until = timezone.now() + lease_time()
    for club_id, token in list(_held.items()):
        DerivedState.objects.filter(club_id=club_id, lease_task=token).update(lease_until=until)


def _marks_since() -> dict[int, datetime.datetime]:
    """Each club with marks: since when (its oldest mark)."""
    since: dict[int, datetime.datetime] = {}
    for model in (RatingDirty, SeasonDirty):
        for club_id, first in (
            model.objects.values("club_id").annotate(first=Min("created_at")).values_list("club_id", "first")
        ):
            since[club_id] = min(first, since.get(club_id, first))
    return since


def _queued() -> set[int]:
    """The clubs whose job waits in the queue (a retry waiting out its backoff included)."""
    if not isinstance(apply_club.get_backend(), DatabaseBackend):
        return set()
    waiting = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path=apply_club.module_path
    ).values_list("args_kwargs", flat=True)
    return {int(args["args"][0]) for args in waiting if args.get("args")}


def _alive(now: datetime.datetime) -> dict[int, str]:
    """The clubs a live job is at, with its lease's token."""
    return dict(DerivedState.objects.filter(lease_until__gt=now).values_list("club_id", "lease_task"))


class WorkerLost(Exception):
    """What a job whose worker died is noted as failing with (its lease lapsed)."""


LOST_NOTE = "The worker running this job stopped (its lease lapsed); the club's job was queued again.\n"


def sweep() -> list[int]:
    """Queue the job of every club that has marks, no job in the queue and no live job (a dead
    worker's, or one lost between a write's commit and its queueing): every worker process runs
    this every ``DERIVED_SWEEP_SECONDS``. Also notes a dead worker's running task as failed, so
    the task results say what became of it. Returns the clubs queued."""
    now = timezone.now()
    marked = _marks_since()
    # Every club with marks gets its state row, so the admin lists it from the first sweep.
    known = set(DerivedState.objects.filter(club_id__in=list(marked)).values_list("club_id", flat=True))
    if marked.keys() - known:
        DerivedState.objects.bulk_create(
            [DerivedState(club_id=club_id) for club_id in marked.keys() - known], ignore_conflicts=True
        )
    alive = _alive(now)
    grace = now - sweep_every()  # a write's commit just before its job is queued
    waiting = {club_id for club_id, since in marked.items() if since < grace} - alive.keys()
    stuck = sorted(waiting - _queued()) if waiting else []
    for club_id in stuck:
        log.warning("club %s has marks and no live job: queued again", club_id)
        apply_club.enqueue(club_id)
    if isinstance(apply_club.get_backend(), DatabaseBackend):
        lost = list(
            DBTaskResult.objects.filter(
                status=TaskResultStatus.RUNNING,
                task_path=apply_club.module_path,
                started_at__lt=now - lease_time(),
            )
            .exclude(id__in=[token for token in alive.values() if token])
            .values_list("pk", flat=True)
        )
        # Read first: a sweep that finds nothing writes nothing (SQLite has one write lock).
        if lost:
            DBTaskResult.objects.filter(pk__in=lost, status=TaskResultStatus.RUNNING).update(
                status=TaskResultStatus.FAILED,
                finished_at=now,
                exception_class_path=f"{__name__}.{WorkerLost.__qualname__}",
                traceback=LOST_NOTE,
            )
    return stuck


def apply(club_id: int, *, lease: str = "") -> Applied | None:
    """Bring the club's derived numbers up to date from its marks; None when another worker is
    at it. Each family's re-rating and each season's rebuild is one transaction that also
    removes the marks it read (and marks the seasons a re-rating moved), so a worker stopped
    halfway leaves every number as it was or as it should be, and the next one goes on from
    the marks left."""
    if not try_lock(club_id):
        return None
    try:
        club = Club.objects.filter(pk=club_id).first()
        if club is None:
            return Applied([], [])
        started = timezone.now()
        if lease:
            _take_lease(club_id, lease)
        checkpoint("start")

        def rerated(family: str, since: GameKey, players: set[int]) -> None:
            _mark_seasons_from(club_id, family, since, players)

        families = refresh(club=club, rebuilt=rerated)
        seasons: list[int] = []
        while True:
            marks = list(
                SeasonDirty.objects.filter(club_id=club_id)
                .order_by("pk")
                .values_list("pk", "season_id", "finished_game", "rated_players")[:500]
            )
            if not marks:
                break
            for season_id in sorted({season for _, season, _game, _rated in marks}):
                # Derived by reading only; the write lock is held while the rows are swapped.
                # A change meanwhile adds a mark of its own (directly, or when the worker
                # re-rates), so only the marks read here are removed.
                read = [(pk, game, rated) for pk, season, game, rated in marks if season == season_id]
                season = Season.objects.filter(pk=season_id).first()
                rows, counted_until = _standings(season, read) if season is not None else ([], None)
                with transaction.atomic():
                    if season is not None:
                        store_standings(season, rows, counted_until)
                        seasons.append(season_id)
                    SeasonDirty.objects.filter(pk__in=[pk for pk, _game, _rated in read]).delete()
                    checkpoint("season-commit")
                checkpoint("season")
        checkpoint("end")
        DerivedState.objects.update_or_create(
            club_id=club_id, defaults={"as_of": started, "failures": 0, "last_error": "", "failed_at": None}
        )
        return Applied(families, seasons)
    finally:
        if lease:
            _end_lease(club_id, lease)
        unlock(club_id)


def _standings(
    season: Season, marks: Sequence[tuple[int, int | None, list[int] | None]]
) -> tuple[list[SeasonStanding], EventKey | None]:
    """The season's standings after what its marks say moved: brought up to date from its
    stored lines when all that moved are games finished for the first time and players'
    ratings, else derived again from the results."""
    if all(game is not None or rated is not None for _pk, game, rated in marks):
        finished = [game for _pk, game, _rated in marks if game is not None]
        rated = {player for _pk, _game, players in marks for player in players or ()}
        updated = updated_standings(season, finished, rated)
        if updated is not None:
            return updated
    return derived_standings(season)


def failed(club_id: int, error: BaseException) -> int:
    """Note a failed try; returns the number of failures in a row."""
    with transaction.atomic():
        state, _ = DerivedState.objects.select_for_update().get_or_create(club_id=club_id)
        state.failures += 1
        state.last_error = f"{type(error).__name__}: {error}"[:2000]
        state.failed_at = timezone.now()
        state.save()
        return state.failures


def backoff(failures: int) -> datetime.timedelta:
    """How long to wait before the next try: doubling, at most ten minutes."""
    return datetime.timedelta(seconds=min(2 ** min(failures, 10), 600))


# ---------------------------------------------------------------------- what the pages read


@dataclass(frozen=True)
class Freshness:
    pending: bool  # some change is not yet applied
    as_of: datetime.datetime | None  # when the numbers were last complete


def freshness(club_id: int | None) -> Freshness:
    """Whether the club's ratings and standings are catching up (a mark waits for the worker),
    and as of when they are whole: a query for each kind of mark and one for the club's state."""
    if club_id is None:
        return Freshness(False, None)
    pending = (
        RatingDirty.objects.filter(club_id=club_id).exists()
        or SeasonDirty.objects.filter(club_id=club_id).exists()
    )
    as_of = DerivedState.objects.filter(club_id=club_id).values_list("as_of", flat=True).first()
    return Freshness(pending, as_of)


@dataclass(frozen=True)
class Behind:
    """A club whose numbers are not whole: since when it has marks (None: none), how many tries
    failed in a row and when the last did."""

    club: str  # its slug
    pending_since: datetime.datetime | None
    failures: int
    failed_at: datetime.datetime | None


@dataclass(frozen=True)
class Backlog:
    oldest: datetime.datetime | None  # the oldest mark not yet applied
    failing: int  # clubs whose last try failed
    stuck_clubs: list[Behind]  # marks older than ``whole_within()`` and no live job at them
    failing_clubs: list[Behind]  # the last try failed


def backlog() -> Backlog:
    """How far the worker is behind, and which clubs are stuck or failing: five queries at most."""
    now = timezone.now()
    since = _marks_since()
    alive = _alive(now)
    stuck = {club_id for club_id, first in since.items() if is_stuck(first, club_id in alive, now)}
    rows = list(DerivedState.objects.filter(failures__gt=0).values_list("club_id", "failures", "failed_at"))
    failing = {club_id: (failures, failed_at) for club_id, failures, failed_at in rows}
    named = stuck | failing.keys()
    slugs = dict(Club.objects.filter(pk__in=named).values_list("pk", "slug")) if named else {}

    def behind(club_id: int) -> Behind:
        failures, failed_at = failing.get(club_id, (0, None))
        return Behind(slugs.get(club_id, str(club_id)), since.get(club_id), failures, failed_at)

    return Backlog(
        min(since.values()) if since else None,
        len(failing),
        [behind(c) for c in sorted(stuck, key=lambda c: since[c])],
        [behind(c) for c in sorted(failing, key=lambda c: slugs.get(c, ""))],
    )


# ---------------------------------------------------------------------- checking


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def _compare(
    what: str, stored: dict[Any, Any], fresh: dict[Any, Any], fields: Sequence[str]
) -> Iterator[str]:
    for key in sorted(stored.keys() | fresh.keys()):
        old, new = stored.get(key), fresh.get(key)
        if old is None:
            yield f"{what} {key}: missing"
        elif new is None:
            yield f"{what} {key}: stored but not derived"
        else:
            for field in fields:
                was, should = getattr(old, field), getattr(new, field)
                if not _same(was, should):
                    yield f"{what} {key}: {field} is {was!r}, should be {should!r}"


def differences(club: Club) -> list[str]:
    """Every stored rating event and season standing of the club that differs from a fresh
    derivation from the recorded results, as lines for a person; computed without writing."""
    found: list[str] = []
    families = set(Game.objects.filter(club=club).order_by().values_list("family", flat=True).distinct())
    families |= set(
        RatingEvent.objects.filter(club=club).order_by().values_list("family", flat=True).distinct()
    )
    for family in sorted(families):
        fresh = {(e.game_id, e.player_id): e for e in derive(club=club, family=family)}
        stored = {(e.game_id, e.player_id): e for e in RatingEvent.objects.filter(club=club, family=family)}
        found += _compare(f"{club.slug}: {family} rating (game, player)", stored, fresh, EVENT_FIELDS)
        in_order = sorted(fresh.values(), key=lambda e: (e.played_at, e.game_id))
        events = [(e.player_id, e.played_at, e.mu, e.sigma, e.mu_before, e.sigma_before) for e in in_order]
        listed = {
            line.player_id: line for line in current_lines(club_id=club.pk, family=family, events=events)
        }
        shown = {line.player_id: line for line in CurrentRating.objects.filter(club=club, family=family)}
        found += _compare(f"{club.slug}: {family} rating list (player)", shown, listed, LIST_FIELDS)
    for season in Season.objects.filter(club=club).order_by("pk"):
        lines = {(r.family, r.player_id): r for r in standing_rows(season)}
        kept = {(r.family, r.player_id): r for r in SeasonStanding.objects.filter(season=season)}
        found += _compare(f"{club.slug}: season {season.name!r} (family, player)", kept, lines, LINE_FIELDS)
    return found


# ---------------------------------------------------------------------- the worker's job

BUSY_RETRY = datetime.timedelta(seconds=2)


def _again(club_id: int, wait: datetime.timedelta) -> bool:
    """Queue the club's job again after ``wait``, where the backend can wait (the immediate
    backend cannot: the next change, or ``rebuild_derived``, picks the marks up there)."""
    if not apply_club.get_backend().supports_defer:
        return False
    apply_club.using(run_after=timezone.now() + wait).enqueue(club_id)
    return True


def _retry_later(club_id: int, error: Exception) -> None:
    """Note the failed try and queue the next one after its backoff. The error may have broken
    the connection (the database restarted): a new one is opened for the note; when the
    database cannot be reached at all, the club's lease lapses and a worker's sweep queues it."""
    reconnect_if_broken()
    try:
        failures = failed(club_id, error)
        log.error("derived numbers of club %s failed (%s in a row)", club_id, failures, exc_info=error)
        _again(club_id, backoff(failures))
    except DatabaseError:
        log.exception("derived numbers of club %s failed, and so did noting it: the sweep retries", club_id)
        reconnect_if_broken()


@task(takes_context=True)
def apply_club(context: TaskContext, club_id: int) -> dict[str, list[str] | list[int]] | None:
    """Apply the club's marks: re-rate and rebuild what they say."""
    try:
        applied = apply(club_id, lease=str(context.task_result.id))
    except Exception as error:
        _retry_later(club_id, error)
        raise
    if applied is None:
        _again(club_id, BUSY_RETRY)
        return None
    checkpoint("done")
    return {"families": applied.families, "seasons": applied.seasons}
