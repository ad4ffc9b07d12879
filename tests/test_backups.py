"""A backup restores into an empty database with every club as it was (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rummy_site.backups import BackupError, prune, restore

ROOT = Path(__file__).resolve().parent.parent
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


def manage(*args: str, database: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)}
    env.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", DEBUG="1", DATABASE_URL=database)
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def exports(database: str) -> dict[str, object]:
    code = "from games.models import Club; print('slugs:', *Club.objects.values_list('slug', flat=True))"
    said = manage("shell", "-c", code, database=database)
    slugs = next(line for line in said.splitlines() if line.startswith("slugs:")).split()[1:]
    assert slugs
    found = {}
    for slug in slugs:
        document = json.loads(manage("export_club", slug, database=database))
        document.pop("exported_at")  # when it was read, not what it holds
        found[slug] = document
    return found


def psql(sql: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql], check=True, capture_output=True)


@pytest.fixture
def two_databases(tmp_path: Path, migrated_sqlite: Callable[[Path], str]) -> Iterator[tuple[str, str]]:
    """A migrated database to back up and an empty one to restore into, on the suite's engine."""
    if not ON_POSTGRES:
        yield migrated_sqlite(tmp_path / "club.sqlite3"), f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    names = [f"rummy_backup_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    for name in names:
        psql(f"CREATE DATABASE {name}")
    try:
        source, target = (f"postgres://postgres@127.0.0.1:5432/{name}" for name in names)
        manage("migrate", "--noinput", "-v", "0", database=source)
        yield source, target
    finally:
        for name in names:
            psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_a_backup_restored_into_an_empty_database_holds_every_club_as_it_was(
    two_databases: tuple[str, str], tmp_path: Path
) -> None:
    source, target = two_databases
    manage("load_demo", database=source)
    before = exports(source)
    made = Path(manage("backup", "--dir", str(tmp_path / "backups"), database=source).strip())
    assert made.is_file() and made.parent == tmp_path / "backups"
    manage("restore", str(made), database=target)
    manage("migrate", "--noinput", "-v", "0", database=target)
    assert exports(target) == before


def test_a_restore_never_goes_into_a_database_that_holds_data(
    two_databases: tuple[str, str], tmp_path: Path
) -> None:
    source, _target = two_databases
    made = Path(manage("backup", "--dir", str(tmp_path), database=source).strip())
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)}
    env.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", DEBUG="1", DATABASE_URL=source)
    refused = subprocess.run(
        [sys.executable, "manage.py", "restore", str(made)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert refused.returncode != 0
    assert "The database is not empty" in refused.stderr


def test_only_the_newest_backups_are_kept(tmp_path: Path) -> None:
    names = [f"rummy-2027010{day}-030000.sqlite3" for day in range(1, 6)]
    for name in reversed(names):
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not a backup")
    assert prune(tmp_path, keep=3, suffix=".sqlite3") == [tmp_path / name for name in names[2:]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", *names[2:]]


def test_a_backup_is_named_by_its_time_and_written_whole(
    two_databases: tuple[str, str], tmp_path: Path
) -> None:
    source, _target = two_databases
    made = Path(manage("backup", "--dir", str(tmp_path), "--keep", "2", database=source).strip())
    assert re.fullmatch(r"rummy-\d{8}-\d{6}\.(sqlite3|pgdump)", made.name)
    assert made.stat().st_size > 0 and not list(tmp_path.glob("*.partial"))


def test_a_file_of_the_other_engine_is_refused(tmp_path: Path) -> None:
    wrong = tmp_path / ("rummy-1.sqlite3" if ON_POSTGRES else "rummy-1.pgdump")
    wrong.write_bytes(b"x")
    with pytest.raises(BackupError, match="is not a"):
        restore(wrong)
