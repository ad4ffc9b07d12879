"""What moves a federation's rating list, and the worker's job that brings it up to date: the
same pipeline as a club's numbers (``tournaments.derived``), one level up.

Every change that can move the list marks the family to re-rate from a game on
(``FederationDirty``) inside its own transaction and queues ``apply_federation`` after the
commit:

- a counted club game's results (recorded, corrected, deleted, undone, ended, reopened) or its
  date of play, and seats moved between a club's players (a merge): from that game on, in every
  federation the club is or was a member of (a club in none pays one indexed read);
- a player linked to a register entry or unlinked, a claim confirmed, two entries merged or the
  merge undone: from the moved players' first counted game;
- a club joining (from its "games count from" day) or leaving (from then), the setting of what
  counts (from the start), a tournament marked federation-rated or not (from its first table).

The same changes mark the federation's seasons they can move (``FederationSeasonDirty``,
``federations.seasons``): a table of a rated tournament's confirmed round, a rated tournament's
final places moving without its tables (``tournaments.signals.tournament_changed``: its last
round confirmed, a penalty, a final, its settings), a tournament marked or unmarked, links,
merges and memberships (every season of the federation), a season's own settings. The job
derives each marked season again after the ratings.

The job holds a PostgreSQL advisory lock per federation, so two workers never re-rate one
federation's list at once (another worker meanwhile applies other clubs' and federations'
work); a job that finds the lock taken queues itself again shortly. It holds a lease that its
worker renews, and every worker sweeps: a federation with marks, no job queued and no live
lease is queued again, so a killed worker's work is taken up within ``whole_within()``. A mark
is removed only in the transaction that writes the numbers it asked for.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from functools import partial

from django.db import DatabaseError, transaction
from django.db.models import Min
from django.tasks import TaskContext, TaskResultStatus, task
from django.utils import timezone
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from federations import seasons
from federations.models import (
    Federation,
    FederationClub,
    FederationDirty,
    FederationRatingEvent,
    FederationSeasonDirty,
    FederationState,
    RatedTournament,
)
from federations.publication import due, publish_due
from federations.ratings import GameKey, Rerated, mark, refresh
from games.models import Game
from tournaments.derived import backoff, lease_time, reconnect_if_broken, sweep_every, try_lock, unlock
from tournaments.faults import checkpoint
from tournaments.models import Tournament

# The advisory locks' first key for federations (a club's are in tournaments.derived's space).
LOCK_SPACE = 27_002
BUSY_RETRY = datetime.timedelta(seconds=2)
EPOCH: GameKey = (datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC), 0)

log = logging.getLogger(__name__)


def schedule(federation_id: int) -> None:
    """Queue the federation's job once the current transaction commits."""
    transaction.on_commit(partial(apply_federation.enqueue, federation_id))


def _counting(club_id: int) -> list[int]:
    """The federations a club's games count for: those it is or was a member of."""
    return list(
        FederationClub.objects.filter(club_id=club_id, joined_at__isnull=False)
        .values_list("federation_id", flat=True)
        .distinct()
    )


def _mark_all(federation_ids: Iterable[int], family: str, since: GameKey) -> None:
    for federation_id in sorted(set(federation_ids)):
        mark(federation_id, family, since)
        schedule(federation_id)


# ---------------------------------------------------------------------- the clubs' changes


def game_changed(game: Game, *, finished: bool) -> None:
    """A club game's results were rewritten (or the game deleted). A game under way that was
    never rated moves nothing."""
    if game.club_id is None:
        return
    federations = _counting(game.club_id)
    if not federations:
        return
    if game.pk is None:  # told after the delete
        _mark_all(federations, game.family, (game.played_at, 0))
        return
    rated = FederationRatingEvent.objects.filter(game=game).values_list("federation_id", "played_at")
    earlier = {fed: at for fed, at in rated}
    if not finished and not earlier:
        return
    _mark_tables(game, federations)
    for federation_id in federations:
        at = min(game.played_at, earlier.get(federation_id, game.played_at))
        _mark_all([federation_id], game.family, (at, game.pk if at == game.played_at else 0))


def _mark_tables(game: Game, federations: list[int]) -> None:
    """A table of a rated tournament's confirmed round: the seasons containing its day."""
    for federation_id, family, day in seasons.confirmed_table_of(game.pk, federations):
        if seasons.mark(federation_id, family=family, days=[day]):
            schedule(federation_id)


def _mark_seasons(federation_id: int) -> None:
    """Every season of the federation (whom its tournaments place changed)."""
    if seasons.mark(federation_id):
        schedule(federation_id)


def game_dated(game: Game, *, before: datetime.datetime, after: datetime.datetime) -> None:
    if game.club_id is not None:
        _mark_all(_counting(game.club_id), game.family, (min(before, after), 0))


def games_moved(*, club_id: int, game_ids: Iterable[int]) -> None:
    """Seats moved between a club's players (a merge, its undo): each family from the earliest
    moved game on."""
    federations = _counting(club_id)
    if not federations:
        return
    firsts = Game.objects.filter(pk__in=list(game_ids)).values("family").annotate(first=Min("played_at"))
    for row in firsts:
        _mark_all(federations, row["family"], (row["first"], 0))
    for federation_id in federations:  # a tournament's entries may have moved too
        _mark_seasons(federation_id)


# ---------------------------------------------------------------------- the federation's changes


def players_moved(federation: Federation, player_ids: Iterable[int]) -> None:
    """Players linked, unlinked or moved to another entry: whom their games rate changed, from
    each one's first counted game on."""
    firsts = (
        FederationRatingEvent.objects.filter(federation=federation, player_id__in=list(player_ids))
        .values("family")
        .annotate(first=Min("played_at"))
    )
    for row in firsts:
        _mark_all([federation.pk], row["family"], (row["first"], 0))
    _mark_seasons(federation.pk)


def _families(club_ids: Iterable[int], since: datetime.datetime) -> list[str]:
    return list(
        Game.objects.filter(club_id__in=list(club_ids), played_at__gte=since)
        .values_list("family", flat=True)
        .distinct()
        .order_by("family")
    )


def membership_changed(membership: FederationClub, *, since: datetime.datetime) -> None:
    """A club joined (its games count from its day) or left (none counts after): every family
    it played from then on."""
    for family in _families([membership.club_id], since):
        _mark_all([membership.federation_id], family, (since, 0))
    _mark_seasons(membership.federation_id)


def everything_changed(federation: Federation) -> None:
    """What counts changed: every family, from the start."""
    clubs = FederationClub.objects.filter(federation=federation, joined_at__isnull=False).values_list(
        "club_id", flat=True
    )
    families = set(_families(clubs, EPOCH[0]))
    families |= set(
        FederationRatingEvent.objects.filter(federation=federation).values_list("family", flat=True)
    )
    for family in sorted(families):
        _mark_all([federation.pk], family, EPOCH)
    _mark_seasons(federation.pk)


def tournament_marked(mark_row: RatedTournament) -> None:
    """A tournament marked federation-rated or not: from its first table on."""
    tournament = mark_row.tournament
    first = Game.objects.filter(tournament_table__round__tournament=tournament).aggregate(
        first=Min("played_at")
    )
    if first["first"] is not None:
        _mark_all([mark_row.federation_id], tournament.family, (first["first"], 0))
    if seasons.mark(mark_row.federation_id, family=tournament.family, days=[tournament.date]):
        schedule(mark_row.federation_id)


def tournament_changed(tournament: Tournament, before: Tournament | None = None) -> None:
    """A tournament's final places may have moved without its tables (its last round
    confirmed, a penalty, a final, its settings; ``before``: as it was): the seasons of each
    federation that rates it containing its day, before and after."""
    for federation_id, _tournament in seasons.rated_in([tournament.pk]):
        marked = seasons.mark(federation_id, family=tournament.family, days=[tournament.date])
        if before is not None:
            marked += seasons.mark(federation_id, family=before.family, days=[before.date])
        if marked:
            schedule(federation_id)


def season_changed(federation_id: int, season_id: int) -> None:
    """A season created or its settings changed: derived whole by the worker."""
    FederationSeasonDirty.objects.create(season_id=season_id, federation_id=federation_id)
    schedule(federation_id)


# ---------------------------------------------------------------------- the worker's job

_held: dict[int, str] = {}


def _take_lease(federation_id: int, token: str) -> None:
    _held[federation_id] = token
    FederationState.objects.update_or_create(
        federation_id=federation_id,
        defaults={"lease_task": token, "lease_until": timezone.now() + lease_time()},
    )


def _end_lease(federation_id: int, token: str) -> None:
    _held.pop(federation_id, None)
    reconnect_if_broken()
    try:
        FederationState.objects.filter(federation_id=federation_id, lease_task=token).update(lease_until=None)
    except DatabaseError:
        log.warning("could not end the lease of federation %s: it lapses by itself", federation_id)


def renew() -> None:
    """Renew the leases of the federation jobs this process is at (the worker's sweeper)."""
    until = timezone.now() + lease_time()
    for federation_id, token in list(_held.items()):
        FederationState.objects.filter(federation_id=federation_id, lease_task=token).update(
            lease_until=until
        )


def apply(federation_id: int, *, lease: str = "") -> list[Rerated] | None:
    """Re-rate what the federation's marks say; None when another worker is at it."""
    if not try_lock(federation_id, LOCK_SPACE):
        return None
    try:
        federation = Federation.objects.filter(pk=federation_id).first()
        if federation is None:
            return []
        started = timezone.now()
        if lease:
            _take_lease(federation_id, lease)
        checkpoint("federation-start")
        done = refresh(federation)
        checkpoint("federation-rated")
        seasons.refresh(federation)
        checkpoint("federation-seasons")
        publish_due(federation)
        checkpoint("federation-end")
        FederationState.objects.update_or_create(
            federation_id=federation_id,
            defaults={"as_of": started, "failures": 0, "last_error": "", "failed_at": None},
        )
        return done
    finally:
        if lease:
            _end_lease(federation_id, lease)
        unlock(federation_id, LOCK_SPACE)


def _again(federation_id: int, wait: datetime.timedelta) -> None:
    if apply_federation.get_backend().supports_defer:
        apply_federation.using(run_after=timezone.now() + wait).enqueue(federation_id)


def _retry_later(federation_id: int, error: Exception) -> None:
    reconnect_if_broken()
    try:
        with transaction.atomic():
            state, _ = FederationState.objects.select_for_update().get_or_create(federation_id=federation_id)
            state.failures += 1
            state.last_error = f"{type(error).__name__}: {error}"[:2000]
            state.failed_at = timezone.now()
            state.save()
        log.error("federation %s failed (%s in a row)", federation_id, state.failures, exc_info=error)
        _again(federation_id, backoff(state.failures))
    except DatabaseError:
        log.exception("federation %s failed, and so did noting it: the sweep retries", federation_id)
        reconnect_if_broken()


@task(takes_context=True)
def apply_federation(context: TaskContext, federation_id: int) -> dict[str, int] | None:
    """Apply the federation's marks: re-rate its families' lists from where they say."""
    try:
        done = apply(federation_id, lease=str(context.task_result.id))
    except Exception as error:
        _retry_later(federation_id, error)
        raise
    if done is None:
        _again(federation_id, BUSY_RETRY)
        return None
    return {r.family: r.events for r in done}


def sweep() -> list[int]:
    """Queue the job of every federation with marks older than a sweep, or a monthly list to
    publish, and no job queued or live (a killed worker's, or one lost between a commit and its
    queueing; on the 1st, the first sweep after midnight)."""
    now = timezone.now()
    marked = dict(
        FederationDirty.objects.values("federation_id")
        .annotate(first=Min("created_at"))
        .values_list("federation_id", "first")
    )
    for federation_id, first in (
        FederationSeasonDirty.objects.values("federation_id")
        .annotate(first=Min("created_at"))
        .values_list("federation_id", "first")
    ):
        marked[federation_id] = min(first, marked.get(federation_id, first))
    alive = set(FederationState.objects.filter(lease_until__gt=now).values_list("federation_id", flat=True))
    waiting = ({fed for fed, since in marked.items() if since < now - sweep_every()} | set(due(now))) - alive
    if not waiting:
        return []
    queued: set[int] = set()
    if isinstance(apply_federation.get_backend(), DatabaseBackend):
        args = DBTaskResult.objects.filter(
            status=TaskResultStatus.READY, task_path=apply_federation.module_path
        ).values_list("args_kwargs", flat=True)
        queued = {int(a["args"][0]) for a in args if a.get("args")}
    stuck = sorted(waiting - queued)
    for federation_id in stuck:
        log.warning("federation %s has marks and no live job: queued again", federation_id)
        apply_federation.enqueue(federation_id)
    return stuck
