"""``manage.py backup``: a dated, consistent copy of the whole database (rummy_site/backups.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from rummy_site.backups import BackupError, backup


class Command(BaseCommand):
    help = "Write a dated backup of the database and keep only the newest ones."

    def add_arguments(self, parser: CommandParser) -> None:
        default = os.environ.get("BACKUP_DIR") or str(
            Path(os.environ.get("LOCAL_DATA_DIR") or settings.BASE_DIR / "var") / "backups"
        )
        parser.add_argument("--dir", default=default, help=f"Where the backups go (default: {default}).")
        parser.add_argument("--keep", type=int, default=14, help="How many backups to keep (default: 14).")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["keep"] < 1:
            raise CommandError("--keep must be at least 1")
        try:
            path = backup(Path(options["dir"]), keep=options["keep"])
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(str(path))
