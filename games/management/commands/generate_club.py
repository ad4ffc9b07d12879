"""Generate a big club's history, fast: a club, its players and its finished games over the
last two years, for trying the club's pages and standings at size.

    manage.py generate_club --players 500 --games 5000 --hands 100000 [--name "Big club"]
        [--seed 1] [--family zoliky|gin|carousel|rummikub|mixed] [--organiser USERNAME]
    manage.py generate_club --small        # 50 players, 200 games, 2000 hands

Hands are not recorded one by one through the services (far too slow at this size): each game
is played out in Python hand by hand with ``scoring.game`` (``start().play(...)``, which is what
``score_game`` does), and its rows are written in bulk, 250 games at a time: games and players
with ``bulk_create``, seats, hands, scores and results as plain parameter rows (the model layer
costs more than the database at 100,000 hands). The scores and results are exactly what the
services derive (``games.services.results.rebuild`` on a generated game changes nothing), and
``games.signals.results_changed`` is sent once per family, for its first game, so the apps built
on this one (ratings) catch up. Times are set on the rows as they are inserted (the models'
``auto_now`` fields are switched off meanwhile). Only ``random.Random(seed)`` draws the data, so
a seed gives the same club again (the games' random ids and edit links aside). No ``Change``
rows are written: the games have no history to undo.

A game ends by its family's own rule (Žolíky's last player standing, gin and Carousel's target)
or, when that did not come first, because the evening was declared over after its planned
hands (``ended``). A game cut short by its family's end hands its unplayed hands on to the
next games, so the total comes out as asked unless the last games end early too.
"""

from __future__ import annotations

import datetime
import functools
import itertools
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, models, transaction
from django.utils import timezone

from engine.rules import FAMILIES, RuleSet, rule_set, table_options
from games.models import Club, Game, Hand, Membership, Player, Result, Score, Seat
from games.services.clubs import club_create
from games.services.errors import ServiceError
from games.signals import results_changed
from games.text.names import loose_key, name_key
from scoring.errors import ScoringError
from scoring.families import family as rule_family
from scoring.families import family_info
from scoring.game import GameState, start
from scoring.ranking import seat_results


def analyse() -> None:
    """Refresh PostgreSQL's table statistics after a bulk load: without them its planner takes
    the new tables for empty ones and scans where it should look up (SQLite plans without)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


DEFAULTS = {"players": 500, "games": 5000, "hands": 100_000}
SMALL = {"players": 50, "games": 200, "hands": 2000}
DAYS = 730  # two seasons
CHUNK = 250  # games written per round of bulk_create
BATCH = 2000  # rows per INSERT statement (Django lowers it where the database needs)
MINUTES_PER_HAND = (2, 7)

# Players per game: 3-5 within the family's limits (gin is for two).
TABLE = (3, 5)


def table_sizes(key: str) -> tuple[int, int]:
    """The fewest and most players of a generated game of family ``key``."""
    info = family_info(key)
    return min(max(info.min_players, TABLE[0]), info.max_players), min(TABLE[1], info.max_players)


FIRST_NAMES = {
    "cs": (
        "Jana Petr Eva Tomáš Lucie Jakub Tereza Martin Kateřina Ondřej Veronika Lukáš Markéta Jiří "
        "Zuzana Pavel Hana Michal Barbora David Klára Vojtěch Alžběta Filip Šárka Radek Dagmar Jan "
        "Božena Vít Ludmila Miroslav Zdeňka Štěpán Iveta Matěj Jitka Bohumil Magdaléna Přemysl"
    ),
    "pl": (
        "Agnieszka Krzysztof Małgorzata Piotr Katarzyna Grzegorz Magdalena Tomasz Joanna Paweł "
        "Ewa Łukasz Aleksandra Wojciech Dorota Marcin Beata Michał Monika Jacek Żaneta Rafał "
        "Urszula Bartłomiej Halina Zbigniew Jadwiga Mateusz Grażyna Sławomir Bożena Przemysław "
        "Wiesława Jarosław Anna Kamil Weronika Szymon Iwona Mikołaj"
    ),
    "no": (
        "Ola Kari Ingrid Håkon Sigrid Bjørn Solveig Eirik Astrid Øystein Marit Tor Ragnhild Knut "
        "Liv Arne Gunhild Trond Hilde Sindre Åse Vegard Torill Magnus Synnøve Ståle Ingeborg "
        "Lars Randi Geir Tone Espen Kristin Odd Bodil Halvor Vigdis Sverre Jorunn Petter"
    ),
}
# Surname initials that fit each language's names.
INITIALS = {"cs": "BČDFHJKLMNPRŘSŠTVZŽ", "pl": "BCDGJKLMNPRSŚTWZŻ", "no": "ABDEFGHIJKLMNORSTVØ"}


def player_names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct names (by ``name_key``): a first name and a surname's initial, with
    a second initial once the single ones run out (``Ola B. K.``)."""
    firsts = [(lang, name) for lang, names in FIRST_NAMES.items() for name in names.split()]
    pool = [f"{first} {initial}." for lang, first in firsts for initial in INITIALS[lang]]
    rng.shuffle(pool)
    names: list[str] = []
    seen: set[str] = set()
    candidates = iter(pool)
    while len(names) < count:
        name = next(candidates, None)
        if name is None:
            lang, first = rng.choice(firsts)
            name = f"{first} {rng.choice(INITIALS[lang])}. {rng.choice(INITIALS[lang])}."
        if name_key(name) not in seen:
            seen.add(name_key(name))
            names.append(name)
    return names


@dataclass
class Played:
    """One generated game, before it is written."""

    family: str
    rules: RuleSet
    players: list[Player]
    outcomes: list[dict[str, Any]]
    state: GameState  # the scoring of the outcomes (score_game's)
    first_dealer: int
    started: datetime.datetime
    hand_times: list[datetime.datetime] = field(default_factory=list)


def play(
    rng: random.Random, rules: RuleSet, players: Sequence[str], planned: int
) -> tuple[list[Any], GameState]:
    """Up to ``planned`` hands of ``rules.family`` between ``players``, stopping at the family's
    own end: the outcomes and the game's scoring (as ``score_game`` gives it), with the evening
    declared over (``ended``) when the family's end did not come."""
    game = start(rules=rules, players=players)
    outcomes: list[Any] = []
    while len(outcomes) < planned:
        outcome = rule_family(rules.family).sample_outcome(rng, game.active)
        try:
            game = game.play(outcome)
        except ScoringError as error:
            if error.code != "game_over":
                raise
            break  # the family's end came with the last hand
        outcomes.append(outcome)
    state = game.state
    if not state.finished:
        state = game.end(True).state
    return outcomes, state


def planned_hands(total: int, games: int, rng: random.Random) -> list[int]:
    """Hands planned per game: at least one each, varied around the average, summing to ``total``."""
    weights = [rng.uniform(0.4, 1.6) for _ in range(games)]
    spare = total - games
    scale = spare / sum(weights)
    counts = [1 + int(w * scale) for w in weights]
    for i in rng.sample(range(games), total - sum(counts)):
        counts[i] += 1
    return counts


def game_times(count: int, rng: random.Random, now: datetime.datetime) -> list[datetime.datetime]:
    """When each game started: on club evenings (Tuesdays and Fridays, 17:00-21:30 UTC) over
    the last two years, a little more often as the club grew, strictly increasing."""
    first = (now - datetime.timedelta(days=DAYS)).replace(hour=17, minute=0, second=0, microsecond=0)
    evenings = [
        first + datetime.timedelta(days=d)
        for d in range(DAYS)
        if (first + datetime.timedelta(days=d)).weekday() in (1, 4)
        and first + datetime.timedelta(days=d, hours=5) < now
    ]
    weights = [1 + i / len(evenings) for i in range(len(evenings))]
    starts = sorted(
        evening + datetime.timedelta(seconds=rng.randrange(4 * 3600 + 1800))
        for evening in rng.choices(evenings, weights=weights, k=count)
    )
    for i in range(1, len(starts)):
        if starts[i] <= starts[i - 1]:
            starts[i] = starts[i - 1] + datetime.timedelta(microseconds=1)
    return starts


@contextmanager
def explicit_timestamps(*model_classes: type[models.Model]) -> Iterator[None]:
    """Let ``bulk_create`` store the times set on the rows: the models' ``auto_now`` and
    ``auto_now_add`` fields are switched off meanwhile (and always switched back)."""
    fields = [
        f
        for model in model_classes
        for f in model._meta.concrete_fields
        if isinstance(f, models.DateField) and (f.auto_now or f.auto_now_add)
    ]
    saved = [(f, f.auto_now, f.auto_now_add) for f in fields]
    try:
        for f in fields:
            f.auto_now = f.auto_now_add = False  # type: ignore[attr-defined]
        yield
    finally:
        for f, auto_now, auto_now_add in saved:
            f.auto_now, f.auto_now_add = auto_now, auto_now_add  # type: ignore[attr-defined]


def insert(model: type[models.Model], names: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> list[int]:
    """Insert ``rows`` (values of the fields ``names``) into ``model``'s table and return the
    new ids in order, without building model instances (the model layer costs more than the
    database here). Values are adapted for the database as the fields would."""
    fields: list[models.Field[Any, Any]] = []
    for name in names:
        f = model._meta.get_field(name)
        assert isinstance(f, models.Field)
        fields.append(f)
    ops = connection.ops
    adapters: list[Callable[[Any], Any] | None] = []
    for f in fields:
        if isinstance(f, models.JSONField):
            adapters.append(functools.partial(ops.adapt_json_value, encoder=f.encoder))
        elif isinstance(f, models.DateTimeField):
            adapters.append(ops.adapt_datetimefield_value)
        else:
            adapters.append(None)
    columns = ", ".join(ops.quote_name(str(f.column)) for f in fields)
    placeholder = f"({', '.join(['%s'] * len(fields))})"
    limit = connection.features.max_query_params or 999
    batch = max(1, min(BATCH, limit // len(fields)))
    assert model._meta.pk is not None
    pk = ops.quote_name(str(model._meta.pk.column))
    ids: list[int] = []
    with connection.cursor() as cursor:
        for at in range(0, len(rows), batch):
            part = rows[at : at + batch]
            params = [
                adapt(value) if adapt is not None else value
                for row in part
                for value, adapt in zip(row, adapters, strict=True)
            ]
            cursor.execute(
                f"INSERT INTO {ops.quote_name(model._meta.db_table)} ({columns}) "
                f"VALUES {', '.join([placeholder] * len(part))} RETURNING {pk}",
                params,
            )
            ids.extend(row[0] for row in cursor.fetchall())
    return ids


def write(club: Club, owner: Any, played: Sequence[Played]) -> list[Game]:
    """Write ``played`` games with their seats, hands, scores and results (bulk inserts)."""
    games = Game.objects.bulk_create(
        [
            Game(
                family=p.family,
                options=dict(p.rules.options),
                owner=owner,
                club=club,
                first_dealer=p.first_dealer,
                ended=p.state.finish_reason == "ended",
                next_hand_number=len(p.outcomes) + 1,
                created_at=p.started,
                played_at=p.started,
                updated_at=p.hand_times[-1] if p.hand_times else p.started,
            )
            for p in played
        ],
        batch_size=BATCH,
    )
    seat_ids = insert(
        Seat,
        ("game", "position", "name", "player"),
        [
            (game.pk, i, player.name, player.pk)
            for game, p in zip(games, played, strict=True)
            for i, player in enumerate(p.players)
        ],
    )
    hand_ids = insert(
        Hand,
        ("game", "number", "outcome", "version", "created_at", "updated_at"),
        [
            (game.pk, n, outcome, 1, at, at)
            for game, p in zip(games, played, strict=True)
            for n, (outcome, at) in enumerate(zip(p.outcomes, p.hand_times, strict=True), start=1)
        ],
    )
    scores: list[tuple[int, int, int]] = []
    results: list[tuple[Any, ...]] = []
    seat_at = hand_at = 0
    for game, p in zip(games, played, strict=True):
        seats = dict(
            zip(
                (player.name for player in p.players),
                seat_ids[seat_at : seat_at + len(p.players)],
                strict=True,
            )
        )
        game_hands = hand_ids[hand_at : hand_at + len(p.outcomes)]
        seat_at += len(p.players)
        hand_at += len(p.outcomes)
        scores.extend(
            (hand_id, seats[name], points)
            for hand_id, result in zip(game_hands, p.state.hands, strict=True)
            for name, points in result.points.items()
        )
        for player, (name, r) in zip(p.players, seat_results(p.state).items(), strict=True):
            results.append(
                (
                    game.pk,
                    seats[name],
                    player.pk,
                    r.total,
                    r.place,
                    r.winner,
                    r.finished,
                    r.eliminated_in,
                    r.hands,
                )
            )
    insert(Score, ("hand", "seat", "points"), scores)
    insert(
        Result,
        ("game", "seat", "player", "total", "place", "winner", "finished", "eliminated_in", "hands"),
        results,
    )
    return games


class Command(BaseCommand):
    help = "Generate a club with many players and finished games over two years (fast, for scale tests)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, help=f"players (default {DEFAULTS['players']})")
        parser.add_argument("--games", type=int, help=f"games (default {DEFAULTS['games']})")
        parser.add_argument("--hands", type=int, help=f"hands in all (default {DEFAULTS['hands']})")
        parser.add_argument(
            "--small", action="store_true", help="a small club: 50 players, 200 games, 2000 hands"
        )
        parser.add_argument("--name", default="Big club", help="the club's name")
        parser.add_argument("--seed", type=int, default=1, help="random seed (same seed, same club)")
        parser.add_argument(
            "--family", default="rummikub", choices=[*FAMILIES, "mixed"], help="rule family, or mixed"
        )
        parser.add_argument(
            "--organiser", default="organiser", help="the organiser's username (created if missing)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        sizes = SMALL if options["small"] else DEFAULTS
        count_players = options["players"] or sizes["players"]
        count_games = options["games"] or sizes["games"]
        count_hands = options["hands"] or sizes["hands"]
        family_choice: str = options["family"]
        families = list(FAMILIES) if family_choice == "mixed" else [family_choice]
        if count_players < max(table_sizes(f)[1] for f in families):
            raise CommandError(f"--players must be at least {max(table_sizes(f)[1] for f in families)}")
        if count_games < 1 or count_hands < count_games:
            raise CommandError("--games must be at least 1 and --hands at least --games")

        rng = random.Random(options["seed"])
        began = time.monotonic()
        now = timezone.now()
        self.stdout.write(
            f"Generating {count_players} players, {count_games} games, {count_hands} hands "
            f"({family_choice}, seed {options['seed']})..."
        )
        with transaction.atomic(), explicit_timestamps(Player, Game):
            user_model = get_user_model()
            organiser = user_model.objects.filter(username=options["organiser"]).first()
            if organiser is None:
                organiser = user_model(username=options["organiser"])
                organiser.set_unusable_password()
                organiser.save()
            try:
                club = club_create(name=options["name"], user=organiser)
            except ServiceError as error:
                raise CommandError(error.message) from None
            founded = now - datetime.timedelta(days=DAYS + 1)
            Club.objects.filter(pk=club.pk).update(created_at=founded)
            Membership.objects.filter(club=club).update(created_at=founded)

            names = player_names(count_players, rng)
            players = Player.objects.bulk_create(
                [
                    Player(club=club, name=n, key=name_key(n), loose_key=loose_key(n), created_at=founded)
                    for n in names
                ],
                batch_size=BATCH,
            )
            # Some come every week, most now and then.
            activity = list(itertools.accumulate(rng.paretovariate(2.0) for _ in players))
            self.stdout.write(f"  players: {len(players)} ({time.monotonic() - began:.1f} s)")

            plans = planned_hands(count_hands, count_games, rng)
            starts = game_times(count_games, rng, now)
            cap = 3 * max(1, count_hands // count_games)
            carried = written_hands = 0
            chunk: list[Played] = []
            firsts: dict[str, Game] = {}  # each family's first game
            for index, (planned, started) in enumerate(zip(plans, starts, strict=True)):
                family = rng.choice(families)
                low, high = table_sizes(family)
                size = rng.randint(low, high)
                table: list[Player] = []
                while len(table) < size:
                    pick = rng.choices(players, cum_weights=activity)[0]
                    if pick not in table:
                        table.append(pick)
                rules = rule_set(family, table_options(family, len(table)))  # as game_start does
                wanted = planned + carried
                outcomes, state = play(rng, rules, [p.name for p in table], min(wanted, cap))
                carried = wanted - len(outcomes)
                at = started
                hand_times = []
                for _ in outcomes:
                    at += datetime.timedelta(minutes=rng.uniform(*MINUTES_PER_HAND))
                    hand_times.append(min(at, now))
                chunk.append(
                    Played(
                        family=family,
                        rules=rules,
                        players=table,
                        outcomes=outcomes,
                        state=state,
                        first_dealer=rng.randrange(len(table)),
                        started=started,
                        hand_times=hand_times,
                    )
                )
                written_hands += len(outcomes)
                if len(chunk) == CHUNK or index == count_games - 1:
                    for game in write(club, organiser, chunk):
                        firsts.setdefault(game.family, game)
                    chunk = []
                    self.stdout.write(
                        f"  games: {index + 1}/{count_games}, hands: {written_hands} "
                        f"({time.monotonic() - began:.1f} s)"
                    )
            # As the services do for each write (the apps built on this one, such as ratings,
            # catch up from there): once per family, from its first game on.
            for game in firsts.values():
                results_changed.send(sender=Game, game=game, finished=True)
            self.stdout.write(f"  written ({time.monotonic() - began:.1f} s), committing...")
        analyse()
        elapsed = time.monotonic() - began
        self.stdout.write(
            self.style.SUCCESS(
                f"Club {club.name!r} (/{club.slug}): {len(players)} players, {count_games} games, "
                f"{written_hands} hands in {elapsed:.1f} s"
            )
        )
        if written_hands < count_hands:
            self.stdout.write(
                f"{count_hands - written_hands} hands fewer than asked: the last games reached "
                "their family's end first."
            )
