"""The evening the load test plays (bench/load_night.py): a public club's Rummikub tournament,
four players a table, its first round seated and started through the site's own services, so
every table has its game. Prints what the phones need as JSON: the tournament, its entries (the
players' tournament pages), the club's players and each table's game with its edit link's token.

    DATABASE_URL=... .venv/bin/python bench/load_night_seed.py --tables 25

Run from the root of the code under test (it imports that code's services)."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402

from games.models import Player  # noqa: E402
from games.services.clubs import club_create  # noqa: E402
from scoring.families import family_info  # noqa: E402
from scoring.standings import DEFAULT_TIEBREAKS  # noqa: E402
from tournaments.models import Entry, Table  # noqa: E402
from tournaments.services.entries import entries_add  # noqa: E402
from tournaments.services.round_seating import round_seat  # noqa: E402
from tournaments.services.rounds import round_start  # noqa: E402
from tournaments.services.tournament_settings import Settings, tournament_create  # noqa: E402

PER_TABLE = 4


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=25)
    tables = parser.parse_args().tables
    organiser = User.objects.create_user("night-organiser", password=None)
    club = club_create(name="Night club", user=organiser)
    info = family_info("rummikub")
    settings = Settings(
        name="Friday night",
        date=datetime.date.today(),
        family="rummikub",
        options={},
        rounds=3,
        round_hands=0,  # each game to its end: no table stops saving during the run
        table_min=PER_TABLE,
        table_max=PER_TABLE,
        table_preferred=PER_TABLE,
        byes_allowed=False,
        seating="balanced",
        seat_order="random",
        points="table",
        custom_points="",
        tiebreaks=DEFAULT_TIEBREAKS,
    )
    assert info.min_players <= PER_TABLE <= info.max_players
    tournament = tournament_create(club=club, settings=settings, user=organiser)
    names = [f"Player {i:03}" for i in range(tables * PER_TABLE)]
    entries_add(tournament=tournament, names=names, checked_in=True, user=organiser)
    played = round_seat(tournament=tournament, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    games = [
        {"game": t.game.public_id, "token": t.game.edit_token}
        for t in Table.objects.filter(round=played).select_related("game").order_by("pk")
        if t.game is not None
    ]
    assert len(games) == tables, (len(games), tables)
    players = list(Player.objects.filter(club=club).values_list("pk", flat=True))
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True))
    night = {
        "tournament": tournament.public_id,
        "club": club.slug,
        "players": players,
        "entries": entries,
        "tables": games,
    }
    json.dump(night, sys.stdout)


if __name__ == "__main__":
    main()
