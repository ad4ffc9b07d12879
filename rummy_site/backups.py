"""Backups of the whole database and their restore: SQLite's online backup API, PostgreSQL's
pg_dump and pg_restore (docs/DESIGN.md, "Backups").

A backup is one file, consistent as of one moment while the site keeps serving: SQLite copies
its pages under a read transaction, pg_dump reads one snapshot. A restore goes only into an
empty database (no tables), so it can never mix a season's data with another's.
"""

from __future__ import annotations

import datetime
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.db import connections

PREFIX = "rummy-"
SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}


class BackupError(Exception):
    """Why a backup or a restore cannot be made; the command prints it."""


def _engine(alias: str = "default") -> str:
    vendor = connections[alias].vendor
    if vendor not in SUFFIXES:
        raise BackupError(f"Backups know SQLite and PostgreSQL, not {vendor}.")
    return vendor


def _pg_command(program: str, settings: Mapping[str, Any]) -> tuple[list[str], dict[str, str]]:
    """The program with the connection's address as arguments, its password in the environment."""
    command = [program, "--no-owner", "--no-privileges"]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            command += [flag, str(settings[key])]
    env = dict(os.environ)
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    return command, env


def backup(folder: Path, *, keep: int, now: datetime.datetime | None = None, alias: str = "default") -> Path:
    """Write a dated backup into ``folder`` and keep only the ``keep`` newest there."""
    engine = _engine(alias)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.datetime.now(datetime.UTC)).strftime("%Y%m%d-%H%M%S")
    target = folder / f"{PREFIX}{stamp}{SUFFIXES[engine]}"
    partial = target.with_name(target.name + ".partial")  # never a half-written file under the name
    connection = connections[alias]
    if engine == "sqlite":
        connection.ensure_connection()
        with sqlite3.connect(partial) as copy:
            connection.connection.backup(copy)
        copy.close()
    else:
        settings = connection.settings_dict
        command, env = _pg_command("pg_dump", settings)
        command += ["--format=custom", "--file", str(partial), str(settings["NAME"])]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            partial.unlink(missing_ok=True)
            raise BackupError(f"pg_dump failed: {done.stderr.strip()}")
    partial.rename(target)
    prune(folder, keep=keep, suffix=SUFFIXES[engine])
    return target


def prune(folder: Path, *, keep: int, suffix: str) -> list[Path]:
    """Remove all but the ``keep`` newest backups in ``folder`` (their names sort by date);
    returns those kept."""
    found = sorted(folder.glob(f"{PREFIX}*{suffix}"))
    for old in found[:-keep]:
        old.unlink()
    return found[-keep:]


def _is_empty(alias: str) -> bool:
    with connections[alias].cursor() as cursor:
        return not connections[alias].introspection.table_names(cursor)


def restore(path: Path, *, alias: str = "default") -> None:
    """Bring the backup at ``path`` into the database, which must be empty."""
    engine = _engine(alias)
    if not path.is_file():
        raise BackupError(f"No backup at {path}.")
    if path.suffix != SUFFIXES[engine]:
        raise BackupError(f"{path.name} is not a {engine} backup (its name ends in {SUFFIXES[engine]}).")
    if not _is_empty(alias):
        raise BackupError(
            "The database is not empty: restore into a new one"
            " (a new DATABASE_URL, or move the SQLite file away)."
        )
    connection = connections[alias]
    if engine == "sqlite":
        connection.ensure_connection()
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as source:
            source.backup(connection.connection)
        source.close()
        return
    settings = connection.settings_dict
    connection.close()
    command, env = _pg_command("pg_restore", settings)
    command += ["--exit-on-error", "--dbname", str(settings["NAME"]), str(path)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"pg_restore failed: {done.stderr.strip()}")


def tools_missing() -> str | None:
    """What PostgreSQL backups need that this machine lacks, if anything."""
    for program in ("pg_dump", "pg_restore"):
        if shutil.which(program) is None:
            return program
    return None
