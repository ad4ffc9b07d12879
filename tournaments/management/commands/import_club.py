"""Import a club's export (docs/design/export-format.md) into a new club:

    manage.py import_club FILE --name NAME --organiser USERNAME [--slug SLUG]

Everything is checked first; on any problem the report lists them all (``games[3].hands[2]:
...``, 0-based indexes), nothing is written and the command exits with status 1. When
``--slug`` names an existing club that is empty (no players, games, tournaments or seasons)
and the organiser organises it, the data goes into that club instead.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.commands.generate_club import analyse
from games.models import Club, Membership
from games.web.input import read_json
from tournaments.exchange.importing import import_club
from tournaments.exchange.validation import ImportInvalid


class Command(BaseCommand):
    help = "Import a club export into a new (or an empty) club; nothing is written if anything is wrong."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The JSON document (- for standard input).")
        parser.add_argument("--name", required=True, help="The new club's name.")
        parser.add_argument("--organiser", required=True, help="The username of the club's organiser.")
        parser.add_argument("--slug", help="The club's address (default: made from the name).")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["organiser"]).first()
        if user is None:
            raise CommandError(f"no user {options['organiser']!r}")
        source = options["file"]
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
            doc = read_json(text)
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {source}: {error}") from None
        club = None
        slug = options["slug"]
        if slug:
            club = Club.objects.filter(slug=slug).first()
            if (
                club is not None
                and not Membership.objects.filter(
                    club=club, user=user, role=Membership.Role.ORGANISER
                ).exists()
            ):
                raise CommandError(f"{user.username} is not an organiser of the club {slug!r}")
        try:
            done = import_club(doc, user=user, name=options["name"], slug=slug, club=club)
        except ImportInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(f"{problem.path}: {problem.message} [{problem.code}]")
            raise CommandError(f"nothing imported: {len(invalid.problems)} problem(s)") from None
        analyse()
        self.stdout.write(
            f"Imported into {done.club.name} (/c/{done.club.slug}/): {done.players} players, "
            f"{done.games} games, {done.hands} hands, {done.tournaments} tournaments, {done.seasons} seasons."
        )
