"""Export a federation's own records (docs/design/federation-export.md):

manage.py export_federation SLUG [--output FILE]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from federations.exchange.exporting import export_federation
from federations.models import Federation


class Command(BaseCommand):
    help = (
        "Export a federation's settings, register, clubs' periods, links, rated tournaments and "
        "published lists as JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The federation's address (its slug).")
        parser.add_argument("-o", "--output", help="Write to this file (default: standard output).")

    def handle(self, *args: Any, **options: Any) -> None:
        federation = Federation.objects.filter(slug=options["slug"]).first()
        if federation is None:
            raise CommandError(f"no federation at the address {options['slug']!r}")
        text = json.dumps(export_federation(federation), ensure_ascii=False, indent=2) + "\n"
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8", newline="")
        else:
            self.stdout.write(text, ending="")
