"""``manage.py restore FILE``: a backup brought into an empty database (rummy_site/backups.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rummy_site.backups import BackupError, restore


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` into an empty database, then migrate it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The backup file (.sqlite3 or .pgdump).")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            restore(Path(options["file"]))
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"Restored {options['file']}. Next: manage.py migrate (a backup of an older release)."
        )
