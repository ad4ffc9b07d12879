"""Generate a federation at national size, fast: its member clubs, its register, the clubs'
players linked to it, and the clubs' finished games over the last years, for trying the
federation's lists and its worker at size.

    manage.py generate_federation --clubs 200 --people 20000 --games 500000 [--years 5]
        [--seed 1] [--family rummikub|...] [--no-rate]
    manage.py generate_federation --small      # 10 clubs, 500 people, 5,000 games

Written in bulk as ``generate_club`` writes a club (each game played out by the scoring, its
rows inserted 250 games at a time), with nothing recorded through the services: the clubs join
from the first day, every person has a player at his home club and one in ten plays at a
second club too, and a club keeps one player in ten who is in no register. Most games are club
evenings; every club also holds a tournament a quarter (one round, its tables being that
evening's games). Then, unless ``--no-rate``, the federation's lists are rated whole, as
``rebuild_derived --federation`` does, and the time it took is printed; the clubs' own numbers
are left to ``rebuild_derived`` (they are not what this measures).
"""

from __future__ import annotations

import datetime
import itertools
import random
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from engine.rules import FAMILIES, rule_set, table_options
from federations import derived
from federations.models import Federation, FederationClub, Person, PersonLink
from federations.ratings import refresh
from federations.services.federations import federation_create
from games.management.commands.generate_club import (
    BATCH,
    CHUNK,
    MINUTES_PER_HAND,
    Played,
    analyse,
    explicit_timestamps,
    insert,
    play,
    player_names,
    table_sizes,
    write,
)
from games.models import Club, Game, Membership, Player, Seat
from games.services.clubs import club_create
from games.text.names import loose_key, name_key
from tournaments.models import Entry, Round, Table, TableSeat, Tournament

DEFAULTS = {"clubs": 200, "people": 20_000, "games": 500_000}
SMALL = {"clubs": 10, "people": 500, "games": 5_000}


def evenings(
    rng: random.Random, count: int, first: datetime.datetime, now: datetime.datetime
) -> list[datetime.datetime]:
    """When a club's ``count`` games started: on its two evenings a week, increasing."""
    days = (now - first).days
    nights = [
        first + datetime.timedelta(days=d)
        for d in range(days)
        if (first + datetime.timedelta(days=d)).weekday() in (1, 4)
    ]
    starts = sorted(
        night + datetime.timedelta(seconds=rng.randrange(4 * 3600)) for night in rng.choices(nights, k=count)
    )
    for i in range(1, len(starts)):
        if starts[i] <= starts[i - 1]:
            starts[i] = starts[i - 1] + datetime.timedelta(microseconds=1)
    return starts


class Command(BaseCommand):
    help = (
        "Generate a federation of many clubs, a register and the clubs' games over years (for scale tests)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clubs", type=int, help=f"member clubs (default {DEFAULTS['clubs']})")
        parser.add_argument("--people", type=int, help=f"register entries (default {DEFAULTS['people']})")
        parser.add_argument("--games", type=int, help=f"games in all (default {DEFAULTS['games']})")
        parser.add_argument("--years", type=int, default=5, help="years of history (default 5)")
        parser.add_argument("--small", action="store_true", help="10 clubs, 500 people, 5,000 games")
        parser.add_argument("--seed", type=int, default=1, help="random seed (same seed, same federation)")
        parser.add_argument("--family", default="rummikub", choices=list(FAMILIES), help="rule family")
        parser.add_argument("--name", default="Generated federation", help="the federation's name")
        parser.add_argument("--no-rate", action="store_true", help="do not rate the federation's lists")

    def handle(self, *args: Any, **options: Any) -> None:
        sizes = SMALL if options["small"] else DEFAULTS
        count_clubs = options["clubs"] or sizes["clubs"]
        count_people = options["people"] or sizes["people"]
        count_games = options["games"] or sizes["games"]
        family: str = options["family"]
        rng = random.Random(options["seed"])
        began = time.monotonic()
        now = timezone.now()
        first = (now - datetime.timedelta(days=365 * options["years"])).replace(
            hour=17, minute=0, second=0, microsecond=0
        )
        self.stdout.write(f"Generating {count_clubs} clubs, {count_people} people, {count_games} games...")
        with transaction.atomic(), explicit_timestamps(Player, Game, Person, Tournament):
            organiser = self._organiser()
            federation = federation_create(name=options["name"], user=organiser, id_prefix="GF")
            Federation.objects.filter(pk=federation.pk).update(created_at=first)
            clubs = [
                club_create(name=f"{options['name']} club {n + 1:03d}", user=organiser)
                for n in range(count_clubs)
            ]
            Club.objects.filter(pk__in=[c.pk for c in clubs]).update(created_at=first)
            Membership.objects.filter(club__in=clubs).update(created_at=first)
            FederationClub.objects.bulk_create(
                [
                    FederationClub(
                        federation=federation, club=club, state=FederationClub.State.MEMBER,
                        counts_from=first.date(), joined_at=first,
                    )
                    for club in clubs
                ]
            )  # fmt: skip
            # Club sizes vary: a few big clubs, many small ones.
            weights = [rng.paretovariate(1.5) for _ in clubs]
            names = player_names(count_people, rng)
            homes = rng.choices(range(count_clubs), weights=weights, k=count_people)
            people = Person.objects.bulk_create(
                [
                    Person(
                        federation=federation, number=n + 1, name=name, key=loose_key(name),
                        home_club=clubs[home], created_at=first,
                    )
                    for n, (name, home) in enumerate(zip(names, homes, strict=True))
                ],
                batch_size=BATCH,
            )  # fmt: skip
            Federation.objects.filter(pk=federation.pk).update(next_number=count_people + 1)
            at_club: list[list[tuple[str, Person | None]]] = [[] for _ in clubs]
            for person, home in zip(people, homes, strict=True):
                at_club[home].append((person.name, person))
                if rng.random() < 0.1:
                    other = rng.randrange(count_clubs)
                    if other != home:
                        at_club[other].append((person.name, person))
            guests = iter(player_names(count_people // 5 + 50, random.Random(options["seed"] + 1)))
            for members in at_club:
                known = {name_key(name) for name, _ in members}
                for _ in range(max(2, len(members) // 10)):
                    guest = next(guests)
                    if name_key(guest) not in known:
                        members.append((guest, None))
                        known.add(name_key(guest))
            players: list[list[Player]] = []
            links: list[PersonLink] = []
            for club, members in zip(clubs, at_club, strict=True):
                made = Player.objects.bulk_create(
                    [
                        Player(club=club, name=n, key=name_key(n), loose_key=loose_key(n), created_at=first)
                        for n, _ in members
                    ],
                    batch_size=BATCH,
                )
                players.append(made)
                links += [
                    PersonLink(federation=federation, person=person, player=player, club=club)
                    for player, (_, person) in zip(made, members, strict=True)
                    if person is not None
                ]
            PersonLink.objects.bulk_create(links, batch_size=BATCH)
            self.stdout.write(f"  register and players ({time.monotonic() - began:.1f} s)")
            written = self._games(
                rng, federation, clubs, players, weights, count_games, family, first, now, organiser, began
            )
            self.stdout.write(f"  {written} games written ({time.monotonic() - began:.1f} s), committing...")
        analyse()
        self.stdout.write(
            self.style.SUCCESS(f"Federation {federation.slug}: generated in {time.monotonic() - began:.1f} s")
        )
        if not options["no_rate"]:
            started = time.monotonic()
            with transaction.atomic():
                derived.everything_changed(federation)
            done = refresh(federation)
            analyse()  # the rating tables were empty at the first count
            events = sum(r.events for r in done)
            self.stdout.write(
                self.style.SUCCESS(f"Rated: {events} rating steps in {time.monotonic() - started:.1f} s")
            )

    def _organiser(self) -> Any:
        user_model = get_user_model()
        organiser = user_model.objects.filter(username="federation").first()
        if organiser is None:
            organiser = user_model(username="federation")
            organiser.set_unusable_password()
            organiser.save()
        return organiser

    def _games(
        self, rng: random.Random, federation: Federation, clubs: list[Club], players: list[list[Player]],
        weights: list[float], count: int, family: str, first: datetime.datetime, now: datetime.datetime,
        organiser: Any, began: float,
    ) -> int:  # fmt: skip
        low, high = table_sizes(family)
        per_club = [0] * len(clubs)
        for index in rng.choices(range(len(clubs)), weights=weights, k=count):
            per_club[index] += 1
        written = 0
        for club, members, games in zip(clubs, players, per_club, strict=True):
            if games == 0 or len(members) < high:
                continue
            activity = list(itertools.accumulate(rng.paretovariate(2.0) for _ in members))
            chunk: list[Played] = []
            made: list[Game] = []
            for started in evenings(rng, games, first, now):
                size = rng.randint(low, high)
                table: list[Player] = []
                while len(table) < size:
                    pick = rng.choices(members, cum_weights=activity)[0]
                    if pick not in table:
                        table.append(pick)
                rules = rule_set(family, table_options(family, len(table)))
                outcomes, state = play(rng, rules, [p.name for p in table], rng.randint(1, 3))
                at, hand_times = started, []
                for _ in outcomes:
                    at += datetime.timedelta(minutes=rng.uniform(*MINUTES_PER_HAND))
                    hand_times.append(min(at, now))
                chunk.append(
                    Played(
                        family, rules, table, outcomes, state, rng.randrange(len(table)), started, hand_times
                    )
                )
                if len(chunk) == CHUNK:
                    made += write(club, organiser, chunk)
                    chunk = []
            if chunk:
                made += write(club, organiser, chunk)
            self._tournaments(club, made, organiser)
            written += len(made)
            self.stdout.write(f"  {club.name}: {len(made)} games ({time.monotonic() - began:.1f} s)")
        return written

    def _tournaments(self, club: Club, games: list[Game], organiser: Any) -> None:
        """A tournament a quarter: the first evening of the quarter with three games or more,
        its games the tables of its one confirmed round."""
        by_day: dict[datetime.date, list[Game]] = {}
        for game in games:
            by_day.setdefault(timezone.localdate(game.played_at), []).append(game)
        quarters: dict[tuple[int, int], datetime.date] = {}
        for day, played in sorted(by_day.items()):
            if len(played) >= 3:
                quarters.setdefault((day.year, (day.month - 1) // 3), day)
        for (year, quarter), day in sorted(quarters.items()):
            # One round: each player at one table, so a game sharing a player with an earlier
            # one of the evening stays a club game.
            seated: dict[int, list[tuple[int, int]]] = {}
            for game_id, player_id, position in Seat.objects.filter(
                game_id__in=[g.pk for g in by_day[day]]
            ).values_list("game_id", "player_id", "position"):
                seated.setdefault(game_id, []).append((position, player_id))
            taken: set[int] = set()
            tables = []
            for game in by_day[day]:
                players = {player for _position, player in seated.get(game.pk, [])}
                if players and not players & taken:
                    taken |= players
                    tables.append(game)
            if len(tables) < 2:
                continue
            low, high = table_sizes(tables[0].family)
            tournament = Tournament.objects.create(
                club=club, name=f"Q{quarter + 1} {year}", date=day, family=tables[0].family, rounds=1,
                table_min=low, table_max=high, table_preferred=high,
                created_at=tables[0].played_at, updated_at=tables[0].played_at,
            )  # fmt: skip
            first_round = Round.objects.create(
                tournament=tournament, number=1, status=Round.Status.CONFIRMED, seed=0
            )
            table_ids = insert(
                Table,
                ("round", "number", "game"),
                [(first_round.pk, n, g.pk) for n, g in enumerate(tables, start=1)],
            )
            entrants = sorted(taken)
            entry_of = dict(
                zip(
                    entrants,
                    insert(
                        Entry,
                        ("tournament", "player", "checked_in", "from_round", "version", "created_at"),
                        [(tournament.pk, p, True, 1, 1, tables[0].played_at) for p in entrants],
                    ),
                    strict=True,
                )
            )
            insert(
                TableSeat,
                ("table", "entry", "position"),
                [
                    (table_id, entry_of[player], position)
                    for table_id, game in zip(table_ids, tables, strict=True)
                    for position, player in sorted(seated[game.pk])
                ],
            )
