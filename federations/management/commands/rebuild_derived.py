"""``rebuild_derived`` with the federations: the clubs' numbers as the tournaments app rebuilds
them, then every federation's rating lists re-rated from the start and its seasons derived again.

    manage.py rebuild_derived [--club SLUG] [--federation SLUG] [--check]

``--federation`` rebuilds (or checks) that federation's lists alone, not the clubs' numbers.
The command extends the tournaments app's own (this app is installed after it, so its
``rebuild_derived`` is the one ``manage.py`` runs). The published monthly lists are never
rebuilt: they are what was published.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from federations import derived, receivers, seasons
from federations.apps import RESULTS_RECEIVER as RECEIVER
from federations.models import Federation
from federations.ratings import differences, refresh
from games import signals
from tournaments.management.commands import rebuild_derived


class Command(rebuild_derived.Command):
    help = "Rebuild scores, results, ratings, season standings and the federations' rating lists."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--federation", metavar="SLUG", help="only this federation's rating lists")

    def handle(self, *args: Any, **options: Any) -> None:
        federations = Federation.objects.order_by("slug")
        if options["federation"]:
            federations = federations.filter(slug=options["federation"])
            if not federations.exists():
                raise CommandError(f"No federation with the address {options['federation']!r}.")
        elif options["check"]:
            try:
                super().handle(*args, **options)
            except CommandError:
                self._check_federations(federations)
                raise
            self._check_federations(federations)
            return
        else:
            # Every federation is re-rated whole below: re-deriving a game must not also mark
            # each federation from that game on.
            signals.results_changed.disconnect(dispatch_uid=RECEIVER)
            try:
                super().handle(*args, **options)
            finally:
                signals.results_changed.connect(receivers.results_changed, dispatch_uid=RECEIVER)
        if options["check"]:
            self._check_federations(federations)
            return
        for federation in federations:
            started = time.perf_counter()
            with transaction.atomic():
                derived.everything_changed(federation)
            done = refresh(federation, repair=True)
            rebuilt = seasons.refresh(federation)
            rated = ", ".join(f"{r.family} {r.events} ratings, {r.people} people" for r in done) or "no games"
            self.stdout.write(
                f"federation {federation.slug}: {rated}, {len(set(rebuilt))} seasons "
                f"in {time.perf_counter() - started:.2f} s"
            )

    def _check_federations(self, federations: Iterable[Federation]) -> None:
        wrong = 0
        for federation in federations:
            found = differences(federation) + seasons.differences(federation)
            for line in found:
                self.stdout.write(line)
            wrong += len(found)
        if wrong:
            raise CommandError(
                f"{wrong} stored federation ratings or season lines differ from a fresh derivation."
            )
        self.stdout.write(
            self.style.SUCCESS("Every federation's rating list and seasons match a fresh derivation.")
        )
