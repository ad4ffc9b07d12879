"""Rebuild every derived number from the recorded hands: the games' scores and results, the
players' ratings, and the seasons' standings, for every club (or one).

    manage.py rebuild_derived [--club SLUG] [--check]

Everything it writes is derived, so it is always safe to run; it is the one way to bring every
number back in line with the hands (after a rule fix, a merge of players, or a rebuild after a
write that failed). The games are re-derived two hundred to a transaction (a game whose rows
already match its hands is left as it is), then each club's ratings
per family in one transaction (``tournaments.rating_history.rebuild_club``, which also clears the
"updating" marks), then its seasons, each in one transaction: an interruption leaves
every number as it was or as it should be, never a mix within one of them. The rebuild also
applies whatever the task worker had still to do.

``--check`` writes nothing: it derives every club's ratings and season standings afresh,
lists each stored number that differs, and exits non-zero when any does.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from engine.errors import EngineError
from games import signals
from games.models import Club, Game, Hand, Result, Score, Seat
from games.services.results import score, store_derived
from scoring.ranking import seat_results
from tournaments import receivers
from tournaments.apps import RECEIVER
from tournaments.derived import differences
from tournaments.models import SeasonDirty
from tournaments.rating_history import rebuild_club
from tournaments.seasons import rebuild_seasons

# Games re-derived per transaction: a few queries read a chunk's seats, hands, scores and
# results, where one game at a time cost eight round trips and a commit per game.
CHUNK = 200


def _grouped[T](rows: Iterable[T], key: Callable[[T], int]) -> dict[int, list[T]]:
    out: dict[int, list[T]] = defaultdict(list)
    for row in rows:
        out[key(row)].append(row)
    return out


def rederive(ids: list[int]) -> int:
    """Re-derive the scores and results of the games ``ids`` in one transaction, the games
    locked; a game whose stored rows already equal a fresh scoring is left as it is (its
    version does not move). Returns the number of games looked at."""
    with transaction.atomic():
        games = list(Game.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk"))
        # Rows, not model instances: the scoring reads a hand's outcome, the writes its id and a
        # seat's id, name and player (making 100,000 instances cost more than scoring them).
        seats = _grouped(
            (
                _Seat(*row)
                for row in Seat.objects.filter(game_id__in=ids)
                .order_by("game_id", "position")
                .values_list("pk", "game_id", "name", "player_id")
            ),
            lambda s: s.game_id,
        )
        hands = _grouped(
            (
                _Hand(*row)
                for row in Hand.objects.filter(game_id__in=ids)
                .order_by("game_id", "number")
                .values_list("pk", "game_id", "outcome")
            ),
            lambda h: h.game_id,
        )
        scores: dict[int, dict[tuple[int, int], int]] = defaultdict(dict)
        for game_id, hand_id, seat_id, points in Score.objects.filter(hand__game_id__in=ids).values_list(
            "hand__game_id", "hand_id", "seat_id", "points"
        ):
            scores[game_id][(hand_id, seat_id)] = points
        stored: dict[int, dict[int, tuple[object, ...]]] = defaultdict(dict)
        for game_id, seat_id, *values in Result.objects.filter(game_id__in=ids).values_list(
            "game_id", "seat_id", "player_id", *_RESULT_COLUMNS
        ):
            stored[game_id][seat_id] = tuple(values)
        for game in games:
            game_seats = cast(list[Seat], seats.get(game.pk, []))
            game_hands = cast(list[Hand], hands.get(game.pk, []))
            try:
                state = score(game, game_seats, game_hands)
            except EngineError:
                continue  # hands that no longer score (which the writes prevent): left as they are
            by_name = {seat.name: seat for seat in game_seats}
            wanted = {
                (hand.pk, by_name[name].pk): points
                for hand, result in zip(game_hands, state.hands, strict=True)
                for name, points in result.points.items()
            }
            results = seat_results(state)
            derived = {
                seat.pk: (seat.player_id, *(getattr(results[seat.name], f) for f in _RESULT_COLUMNS))
                for seat in game_seats
            }
            if wanted != scores.get(game.pk, {}) or derived != stored.get(game.pk, {}):
                store_derived(game, game_seats, game_hands, state)
    return len(games)


class _Seat(NamedTuple):
    pk: int
    game_id: int
    name: str
    player_id: int


class _Hand(NamedTuple):
    pk: int
    game_id: int
    outcome: Any


# A result's columns as ``scoring.ranking.SeatResult`` names them.
_RESULT_COLUMNS = ("total", "place", "winner", "finished", "eliminated_in", "hands")


class Command(BaseCommand):
    help = "Rebuild scores, results, ratings and season standings from the recorded hands."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", metavar="SLUG", help="only this club (its address, /c/SLUG/)")
        parser.add_argument(
            "--check",
            action="store_true",
            help="write nothing: list the stored ratings and standings that differ from a fresh derivation",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        clubs = Club.objects.order_by("slug")
        games = Game.objects.order_by("pk")
        if options["club"]:
            clubs = clubs.filter(slug=options["club"])
            if not clubs.exists():
                raise CommandError(f"No club with the address {options['club']!r}.")
            games = games.filter(club__in=clubs)
        if options["check"]:
            self._check(clubs)
            return
        began = time.perf_counter()
        count = 0
        # The ratings are rebuilt whole below: re-deriving a game must not also queue a rebuild
        # from that game on (one per game would re-rate the club thousands of times).
        signals.results_changed.disconnect(dispatch_uid=RECEIVER)
        try:
            ids = list(games.values_list("pk", flat=True))
            for at in range(0, len(ids), CHUNK):
                count += rederive(ids[at : at + CHUNK])
        finally:
            signals.results_changed.connect(receivers.results_changed, dispatch_uid=RECEIVER)
        self.stdout.write(f"{count} games re-derived in {time.perf_counter() - began:.2f} s")
        total = 0
        for club in clubs:
            started = time.perf_counter()
            marked = list(SeasonDirty.objects.filter(club=club).values_list("pk", flat=True))
            rated = rebuild_club(club=club)
            seasons = rebuild_seasons(club)
            SeasonDirty.objects.filter(pk__in=marked).delete()  # later marks stay for the worker
            games_rated = sum(rated.values())
            total += games_rated
            families = ", ".join(f"{family} {n}" for family, n in rated.items()) or "no games"
            self.stdout.write(
                f"{club.slug}: {games_rated} games rated ({families}), {len(seasons)} seasons "
                f"in {time.perf_counter() - started:.2f} s"
            )
        self.stdout.write(self.style.SUCCESS(f"{total} games rated in {time.perf_counter() - began:.2f} s"))

    def _check(self, clubs: Iterable[Club]) -> None:
        wrong = 0
        for club in clubs:
            found = differences(club)
            for line in found:
                self.stdout.write(line)
            wrong += len(found)
        if wrong:
            raise CommandError(f"{wrong} stored numbers differ from a fresh derivation.")
        self.stdout.write(self.style.SUCCESS("Every stored rating and standing matches a fresh derivation."))
