"""Import a federation's export (docs/design/federation-export.md) into a new federation:

    manage.py import_federation FILE [--organiser USERNAME]

The clubs it names must be on the site (import them first with ``import_club``). Everything is
checked first; on any problem the report lists them all (``links[3].club: ...``, 0-based
indexes), nothing is written and the command exits with status 1. Without ``--organiser`` the
federation has none until the site's administrator adds one.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from federations.exchange.importing import import_federation
from federations.exchange.validation import ImportInvalid
from games.web.input import read_json


class Command(BaseCommand):
    help = "Import a federation export into a new federation; nothing is written if anything is wrong."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The JSON document (- for standard input).")
        parser.add_argument("--organiser", help="The username of the federation's organiser.")

    def handle(self, *args: Any, **options: Any) -> None:
        user = None
        if options["organiser"]:
            user = get_user_model().objects.filter(username=options["organiser"]).first()
            if user is None:
                raise CommandError(f"no user {options['organiser']!r}")
        source = options["file"]
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
            doc = read_json(text)
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {source}: {error}") from None
        try:
            done = import_federation(doc, user=user)
        except ImportInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(f"{problem.path}: {problem.message} [{problem.code}]")
            raise CommandError(f"nothing imported: {len(invalid.problems)} problem(s)") from None
        self.stdout.write(
            f"Imported {done.federation.name} (/f/{done.federation.slug}/): {done.people} people, "
            f"{done.clubs} club periods, {done.links} links, {done.rated_tournaments} rated tournaments, "
            f"{done.published} published lists, {done.seasons} seasons, {done.opens} opens."
        )
        if user is None:
            self.stdout.write("The federation has no organiser: add one in the admin.")
