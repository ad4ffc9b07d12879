"""A federation's rating list per family: the database side of ``scoring.ratings``, as
``tournaments.rating_history`` is for a club.

What counts: the finished games of the federation's member clubs played while each was a
member (from its membership's ``counts_from`` day until it left); under the setting "only
federation-rated tournaments", only the tables of the tournaments its clubs marked. They are
rated one after another in the order (played_at, game id) across all the clubs, each seat as
the register entry its player is linked to, or as the player himself when he is linked to none
(rated, never listed). So a person who plays at two clubs has one rating, moved by both.

``derive`` reads only; ``refresh`` re-rates a family from its mark, swaps the events that came
out different and rewrites the lines of the live list whose people moved, in one transaction
that also removes the mark.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from django.db import transaction
from django.db.models import Count, Q
from django.db.models.expressions import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from federations.models import (
    Federation,
    FederationClub,
    FederationDirty,
    FederationRating,
    FederationRatingEvent,
    Person,
    PersonLink,
    RatedTournament,
)
from games.models import Game
from scoring import ratings as scoring_ratings
from scoring.families import FAMILY_INFO
from scoring.ratings import RatedGame, Rating, display
from tournaments.faults import checkpoint
from tournaments.rating_history import Played, finished_games

GameKey = tuple[datetime.datetime, int]
Who = int  # a register entry's id, or minus an unlinked player's id


def day_start(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time()))


def counted_games(federation: Federation, family: str) -> Q:
    """The games that count for the federation's family list, as a filter of games."""
    periods = FederationClub.objects.filter(
        federation=federation, joined_at__isnull=False, counts_from__isnull=False
    ).values_list("club_id", "counts_from", "ended_at")
    counted = Q(pk__in=[])
    for club_id, counts_from, ended_at in periods:
        window = Q(club_id=club_id, played_at__gte=day_start(cast(datetime.date, counts_from)))
        if ended_at is not None:
            window &= Q(played_at__lt=ended_at)
        counted |= window
    games = Q(family=family, deleted_at=None) & counted
    if federation.counts == Federation.Counts.EVENTS:
        marked = RatedTournament.objects.filter(federation=federation).values("tournament_id")
        games &= Q(tournament_table__round__tournament_id__in=marked)
    return games


def _games_from(since: GameKey) -> Q:
    """Games from ``since`` on, in the order they are rated (on Game)."""
    at, pk = since
    return Q(played_at__gt=at) | Q(played_at=at, pk__gte=pk)


def _events_from(since: GameKey) -> Q:
    """The events of the games from ``since`` on (on FederationRatingEvent)."""
    at, pk = since
    return Q(played_at__gt=at) | Q(played_at=at, game_id__gte=pk)


@dataclass(frozen=True, slots=True)
class Seat:
    player: int
    who: Who


def linked(federation: Federation) -> dict[int, int]:
    """Each linked player's register entry (claims waiting for their club do not count)."""
    return dict(
        PersonLink.objects.filter(federation=federation, state=PersonLink.State.LINKED).values_list(
            "player_id", "person_id"
        )
    )


def _played(federation: Federation, family: str, since: GameKey | None) -> list[Played]:
    """The counted games to rate from ``since`` on, in order, as a club's are read."""
    games = Game.objects.filter(counted_games(federation, family))
    if since is not None:
        games = games.filter(_games_from(since))
    return finished_games(games)


def _start(federation: Federation, family: str, since: GameKey, whos: Iterable[Who]) -> dict[Who, Rating]:
    """Each one's rating before ``since``: his latest event before it (one query)."""
    wanted = list(set(whos))
    if not wanted:
        return {}
    latest = (
        FederationRatingEvent.objects.filter(federation=federation, family=family, who__in=wanted)
        .exclude(_events_from(since))
        .annotate(
            rank=Window(
                RowNumber(), partition_by=[F("who")], order_by=[F("played_at").desc(), F("game_id").desc()]
            )
        )
        .filter(rank=1)
        .values_list("who", "mu", "sigma")
    )
    return {who: Rating(mu, sigma) for who, mu, sigma in latest}


def derive(federation: Federation, family: str, since: GameKey | None = None) -> list[FederationRatingEvent]:
    """The events from ``since`` on (all, for None) as a rebuild would store them, unsaved."""
    links = linked(federation)
    played = _played(federation, family, since)

    def who(player: int) -> Who:
        return links.get(player, -player)

    games = [RatedGame(game.key, tuple(who(p) for p in game.players), game.places) for game in played]
    players = {(game.key, who(p)): p for game in played for p in game.players}
    start = _start(federation, family, since, {w for g in games for w in g.players}) if since else {}
    made = []
    for step in scoring_ratings.replay(games, start):
        key = cast(GameKey, step.key)
        made.append(
            FederationRatingEvent(
                federation=federation,
                family=family,
                game_id=key[1],
                player_id=players[(key, step.player)],
                who=step.player,
                played_at=key[0],
                place=step.place,
                players=step.players,
                mu=step.after.mu,
                sigma=step.after.sigma,
                mu_before=step.before.mu,
                sigma_before=step.before.sigma,
            )
        )
    return made


def _latest(
    federation: Federation, family: str, whos: list[Who]
) -> dict[Who, tuple[float, float, datetime.datetime]]:
    rows = (
        FederationRatingEvent.objects.filter(federation=federation, family=family, who__in=whos)
        .annotate(
            rank=Window(
                RowNumber(), partition_by=[F("who")], order_by=[F("played_at").desc(), F("game_id").desc()]
            )
        )
        .filter(rank=1)
        .values_list("who", "mu", "sigma", "played_at")
    )
    return {who: (mu, sigma, at) for who, mu, sigma, at in rows}


def lines(federation: Federation, family: str, people: Iterable[int]) -> list[FederationRating]:
    """The live list's lines of these register entries, from the stored events (unsaved)."""
    wanted = sorted(set(people))
    made: list[FederationRating] = []
    for start in range(0, len(wanted), 2000):
        chunk = wanted[start : start + 2000]
        counts = dict(
            FederationRatingEvent.objects.filter(federation=federation, family=family, who__in=chunk)
            .values("who")
            .annotate(n=Count("pk"))
            .values_list("who", "n")
        )
        keys = dict(Person.objects.filter(pk__in=chunk).values_list("pk", "key"))
        for who, (mu, sigma, at) in _latest(federation, family, chunk).items():
            made.append(
                FederationRating(
                    federation=federation,
                    family=family,
                    person_id=who,
                    mu=mu,
                    sigma=sigma,
                    rating=display(Rating(mu, sigma)),
                    key=keys.get(who, ""),
                    games=counts[who],
                    last_played=at,
                )
            )
    return made


@dataclass(frozen=True)
class Rerated:
    family: str
    since: GameKey
    events: int  # events written
    people: int  # list lines rewritten


def _moved_lines(
    federation: Federation,
    family: str,
    people: list[int],
    old: dict[int, FederationRating],
    replaced: dict[int, int],
    made: list[FederationRatingEvent],
) -> list[FederationRating]:
    """The lines of the people a re-rating moved, once its events are swapped: a line kept so
    far counts all its person's events, so his games are its count with the replaced events
    taken out and the new ones put in, and his rating is his last new event's. Those with no
    line yet or no new event (moved to another entry) are read from the stored events."""
    last: dict[int, FederationRatingEvent] = {}
    added: dict[int, int] = {}
    for event in made:  # in the order they were rated
        last[event.who] = event
        added[event.who] = added.get(event.who, 0) + 1
    made_lines = []
    rest = []
    for who in people:
        line, latest = old.get(who), last.get(who)
        if line is None or latest is None:
            rest.append(who)
            continue
        line.pk = None
        line.mu, line.sigma, line.last_played = latest.mu, latest.sigma, latest.played_at
        line.rating = display(Rating(latest.mu, latest.sigma))
        line.games += added[who] - replaced.get(who, 0)
        made_lines.append(line)
    return made_lines + lines(federation, family, rest)


def refresh(federation: Federation, *, repair: bool = False) -> list[Rerated]:
    """Re-rate every marked family of the federation from its earliest mark. Each family is
    derived by reading only, then swapped in one transaction that removes the marks it read;
    a mark added meanwhile stays, and the family is derived again from it. ``repair``: the
    moved people's lines are read from the events alone, not from the lines kept (which a
    rebuild does not trust)."""
    done: list[Rerated] = []
    for family in sorted(
        set(FederationDirty.objects.filter(federation=federation).values_list("family", flat=True))
    ):
        while True:
            marks = list(
                FederationDirty.objects.filter(federation=federation, family=family).values_list(
                    "pk", "since_at", "since_game"
                )
            )
            if not marks:
                break
            since = min((at, game) for _pk, at, game in marks)
            made = derive(federation, family, since)
            with transaction.atomic():
                stale = FederationRatingEvent.objects.filter(federation=federation, family=family).filter(
                    _events_from(since)
                )
                replaced = dict(
                    stale.values("who").annotate(n=Count("pk")).order_by().values_list("who", "n")
                )
                people = sorted(who for who in replaced.keys() | {e.who for e in made} if who > 0)
                kept = FederationRating.objects.filter(
                    federation=federation, family=family, person_id__in=people
                )
                old = {} if repair else {line.person_id: line for line in kept}
                stale.delete()
                FederationRatingEvent.objects.bulk_create(made, batch_size=2000)
                kept.delete()
                FederationRating.objects.bulk_create(
                    _moved_lines(federation, family, people, old, replaced, made), batch_size=2000
                )
                FederationDirty.objects.filter(pk__in=[pk for pk, _at, _game in marks]).delete()
                checkpoint("federation-rate-commit")
            done.append(Rerated(family, since, len(made), len(people)))
    return done


def mark(federation_id: int, family: str, since: GameKey) -> None:
    """Mark the federation's family to re-rate from ``since``: one row added, so a write never
    waits for another's mark nor for the worker."""
    FederationDirty.objects.create(
        federation_id=federation_id, family=family, since_at=since[0], since_game=since[1]
    )


EVENT_FIELDS = ("who", "played_at", "place", "players", "mu", "sigma", "mu_before", "sigma_before")
LINE_FIELDS = ("mu", "sigma", "rating", "key", "games", "last_played")


def differences(federation: Federation) -> list[str]:
    """Where the stored events and list lines differ from a fresh derivation of everything
    (``rebuild_derived --check``, the tests)."""
    found: list[str] = []
    stored_families = set(
        FederationRatingEvent.objects.filter(federation=federation).values_list("family", flat=True)
    )
    for family in sorted(stored_families | set(FAMILY_INFO)):
        fresh = {(e.game_id, e.player_id): e for e in derive(federation, family)}
        stored = {
            (e.game_id, e.player_id): e
            for e in FederationRatingEvent.objects.filter(federation=federation, family=family)
        }
        for key in sorted(fresh.keys() | stored.keys()):
            a, b = stored.get(key), fresh.get(key)
            if a is None or b is None or any(not _same(getattr(a, f), getattr(b, f)) for f in EVENT_FIELDS):
                found.append(f"{federation.slug} {family} event {key}: stored {_show(a)}, derived {_show(b)}")
        people = {e.who for e in fresh.values() if e.who > 0}
        keys = dict(Person.objects.filter(pk__in=people).values_list("pk", "key"))
        derived_lines = {line.person_id: line for line in _fresh_lines(family, fresh.values(), keys)}
        kept = {
            line.person_id: line
            for line in FederationRating.objects.filter(federation=federation, family=family)
        }
        for person in sorted(derived_lines.keys() | kept.keys()):
            line, want = kept.get(person), derived_lines.get(person)
            if (
                line is None
                or want is None
                or any(not _same(getattr(line, f), getattr(want, f)) for f in LINE_FIELDS)
            ):
                found.append(f"{federation.slug} {family} line {person}: stored {line!r}, derived {want!r}")
    return found


def _fresh_lines(
    family: str, events: Iterable[FederationRatingEvent], people: dict[int, str]
) -> list[FederationRating]:
    latest: dict[int, FederationRatingEvent] = {}
    counts: dict[int, int] = {}
    for event in sorted(events, key=lambda e: (e.played_at, e.game_id)):
        if event.who in people:
            latest[event.who] = event
            counts[event.who] = counts.get(event.who, 0) + 1
    return [
        FederationRating(
            family=family,
            person_id=who,
            mu=e.mu,
            sigma=e.sigma,
            rating=display(Rating(e.mu, e.sigma)),
            key=people[who],
            games=counts[who],
            last_played=e.played_at,
        )
        for who, e in latest.items()
    ]


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return a == b


def _show(event: FederationRatingEvent | None) -> str:
    return "none" if event is None else str({f: getattr(event, f) for f in EVENT_FIELDS})
