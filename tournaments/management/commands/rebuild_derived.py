"""Rebuild every derived number from the recorded hands: the games' scores and results, the
players' ratings, and the seasons' standings, for every club (or one).

    manage.py rebuild_derived [--club SLUG] [--check]

Everything it writes is derived, so it is always safe to run; it is the one way to bring every
number back in line with the hands (after a rule fix, a merge of players, or a rebuild after a
write that failed). Each game is re-derived in its own transaction, then each club's ratings
per family in one transaction (``tournaments.ratings.rebuild_club``, which also clears the
"updating" marks), then its seasons, each in one transaction: an interruption leaves
every number as it was or as it should be, never a mix within one of them. The rebuild also
applies whatever the task worker had still to do.

``--check`` writes nothing: it derives every club's ratings and season standings afresh,
lists each stored number that differs, and exits non-zero when any does.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games import signals
from games.models import Club, Game
from games.services.results import rebuild
from tournaments import receivers
from tournaments.apps import RECEIVER
from tournaments.derived import differences
from tournaments.models import SeasonDirty
from tournaments.ratings import rebuild_club
from tournaments.seasons import rebuild_seasons


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
            for game in games.iterator(chunk_size=500):
                with transaction.atomic():
                    rebuild(Game.objects.select_for_update().get(pk=game.pk))
                count += 1
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
