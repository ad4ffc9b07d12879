"""Export a club's recorded data (docs/design/export-format.md):

manage.py export_club SLUG [-o FILE]          # the JSON document
manage.py export_club SLUG --csv [-o FILE]    # the score sheets, one row per player per hand
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Club
from tournaments.exchange.exporting import export_club, export_csv, export_user


class Command(BaseCommand):
    help = (
        "Export a club's players, games, hands, tournaments and seasons as JSON (or the score sheets as CSV)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="The club's address (its slug).")
        parser.add_argument("--user", help="Export this user's own games and roster instead of a club.")
        parser.add_argument(
            "--csv", action="store_true", help="The score sheets as CSV instead of the document."
        )
        parser.add_argument("-o", "--output", help="Write to this file (default: standard output).")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["user"]:
            if options["slug"] or options["csv"]:
                raise CommandError("--user exports a user's own document: give no club and no --csv")
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"no user {options['user']!r}")
            doc = export_user(user)
            text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
        else:
            club = Club.objects.filter(slug=options["slug"] or "").first()
            if club is None:
                raise CommandError(f"no club at the address {options['slug']!r}")
            if options["csv"]:
                text = export_csv(club)
            else:
                text = json.dumps(export_club(club), ensure_ascii=False, indent=2) + "\n"
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8", newline="")
        else:
            self.stdout.write(text, ending="")
