"""Load demo data: an organiser account, one evening per rule family, and a club with a few
finished evenings (so its page, its players' pages and their statistics have something to show)
and a tournament half played, and a federation the club belongs to, its players in its
register and its rating list.

Idempotent: what is already there (by the demo owner and family) is left as it is.
"""

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from federations.models import Federation
from federations.ratings import refresh
from federations.services.federations import federation_create
from federations.services.links import link_make
from federations.services.memberships import club_answer, club_invite
from federations.services.register import person_add
from games.models import Club, Game, Player
from games.services.clubs import club_create
from games.services.games import game_end, game_start
from games.services.hands import hand_record
from games.services.players import player_claim
from tournaments import derived
from tournaments.models import Season, Tournament
from tournaments.rating_history import rebuild_club
from tournaments.services.entries import entries_add
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_confirm, round_start
from tournaments.services.seasons import SeasonSettings, season_create
from tournaments.services.tournament_settings import Settings, tournament_create

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-rummy"

DEMO_GAMES: list[tuple[str, dict[str, object], list[str], list[dict[str, object]]]] = [
    (
        "zoliky",
        {"elimination": 0},
        ["Jana", "Petr", "Eva", "Tomáš"],
        [
            {"closer": "Jana", "from_hand": False, "left": {"Petr": 23, "Eva": "KH 5S JK", "Tomáš": 41}},
            {"closer": "Eva", "from_hand": True, "left": {"Jana": 12, "Petr": "AS AD 9C", "Tomáš": 7}},
            {"closer": "Petr", "from_hand": False, "left": {"Jana": 38, "Eva": 15, "Tomáš": "QH QS JK JK"}},
        ],
    ),
    (
        "gin",
        {},
        ["Ola", "Kari"],
        [
            {"knocker": "Ola", "gin": False, "deadwood": {"Ola": 6, "Kari": 31}},
            {"knocker": "Kari", "gin": True, "deadwood": {"Kari": 0, "Ola": 17}},
            {"knocker": "Ola", "gin": False, "deadwood": {"Ola": 9, "Kari": 7}},
        ],
    ),
    (
        "carousel",
        {},
        ["Zuzana", "Milan", "Katarína"],
        [
            {"knocker": "Zuzana", "out": None, "left": {"Zuzana": 4, "Milan": 27, "Katarína": 12}},
            {"knocker": None, "out": "Milan", "left": {"Zuzana": 18, "Katarína": "7H JK"}},
            {"knocker": "Katarína", "out": None, "left": {"Zuzana": 5, "Milan": 30, "Katarína": 5}},
        ],
    ),
    (
        "rummikub",
        {},
        ["Anna", "Piotr", "Kasia"],
        [
            {"winner": "Anna", "left": {"Piotr": 24, "Kasia": "R7 B13 JK"}},
            {"winner": None, "left": {"Anna": 15, "Piotr": 8, "Kasia": 22}},
            {"winner": "Kasia", "left": {"Anna": 31, "Piotr": 6}},
        ],
    ),
]


DEMO_CLUB = "Tuesday club"
# Finished club evenings of Žolíky: (players, hands); each is ended after its hands.
DEMO_CLUB_GAMES: list[tuple[list[str], list[dict[str, object]]]] = [
    (
        ["Jana", "Petr", "Eva", "Tomáš"],
        [
            {"closer": "Petr", "from_hand": False, "left": {"Jana": 14, "Eva": 30, "Tomáš": 22}},
            {"closer": "Jana", "from_hand": True, "left": {"Petr": 18, "Eva": 9, "Tomáš": 40}},
        ],
    ),
    (
        ["Eva", "Tomáš", "Jana"],
        [
            {"closer": "Tomáš", "from_hand": False, "left": {"Eva": 25, "Jana": 12}},
            {"closer": "Tomáš", "from_hand": False, "left": {"Eva": 8, "Jana": 31}},
        ],
    ),
    (
        ["Petr", "Eva", "Tomáš", "Jana"],
        [
            {"closer": "Eva", "from_hand": False, "left": {"Petr": 20, "Tomáš": 11, "Jana": 35}},
            {"closer": "Petr", "from_hand": False, "left": {"Eva": 16, "Tomáš": 27, "Jana": 9}},
        ],
    ),
]


# The club's player the demo account is (his claim): his home then shows his seat tonight, his
# line in the season and his ratings.
DEMO_PLAYER = "Jana"
DEMO_TOURNAMENT = "Autumn Rummikub cup"
DEMO_ENTRANTS = [
    "Jana", "Petr", "Eva", "Tomáš", "Anna", "Piotr", "Kasia", "Ola", "Kari", "Zuzana", "Milan", "Katarína",
]  # fmt: skip


def load_tournament(club: Club, user: Any) -> Tournament:
    """A Rummikub tournament of 12 players, 3 rounds of one hand: two rounds played and
    confirmed, the third seated (so the organiser's next step is to start it)."""
    tournament = tournament_create(
        club=club,
        settings=Settings.from_mapping(
            {
                "name": DEMO_TOURNAMENT,
                "date": timezone.localdate(),
                "family": "rummikub",
                "rounds": 3,
                "round_hands": 1,
                "seating": "balanced",
                "seat_order": "rotating",
                "points": "table",
            }
        ),
        user=user,
    )
    entries_add(tournament=tournament, names=DEMO_ENTRANTS, checked_in=True, user=user)
    for number in (1, 2):
        played = round_seat(tournament=tournament, number=number, user=user)
        played = round_start(played=played, round_version=played.version, user=user)
        for table in played.tables.select_related("game").order_by("number"):
            assert table.game is not None
            names = [seat.name for seat in table.game.seats.all()]
            winner = names[(number + table.number) % len(names)]
            left = {name: 4 + (7 * i + 5 * number) % 29 for i, name in enumerate(names) if name != winner}
            hand_record(game=table.game, outcome={"winner": winner, "left": left}, request_id=None, user=user)
        round_confirm(played=played, round_version=played.version, user=user)
    round_seat(tournament=tournament, number=3, user=user)
    return tournament


def load_season(club: Club, user: Any) -> Season:
    """This year's season of the demo club, counting its games and its tournament, with the
    ratings of every game (rebuilt from the results: the demo's games were recorded before)."""
    today = timezone.localdate()
    rebuild_club(club=club)
    season = season_create(
        club=club,
        settings=SeasonSettings.from_mapping(
            {
                "name": f"Season {today.year}",
                "starts": today.replace(month=1, day=1),
                "ends": today.replace(month=12, day=31),
                "families": ["zoliky", "rummikub"],
                "counts": "both",
                "game_points": "table",
                "tournament_points": "preset",
                "min_games": 2,
            }
        ),
        user=user,
    )
    derived.apply(club.pk)  # the standings at once: the demo is read right after loading
    return season


DEMO_FEDERATION = "Demo federation"


def load_federation(club: Club, user: Any) -> Federation:
    """A federation organised by the demo account, the demo club its member counting all its
    games, every player of the club in its register and linked, the list rated."""
    with transaction.atomic():
        federation = federation_create(name=DEMO_FEDERATION, user=user, id_prefix="DF")
        invited = club_invite(
            federation=federation, club=club, counts_from=datetime.date(2000, 1, 1), user=user
        )
        club_answer(membership=invited, accept=True, version=invited.version, user=user)
        for player in Player.objects.filter(club=club, merged_into=None).order_by("name"):
            person = person_add(federation=federation, name=player.name, home_club=club, user=user)
            link_make(
                federation=federation, club=club, player=player, person_id=str(person.number), user=user
            )
    refresh(federation)
    return federation


class Command(BaseCommand):
    help = "Create the demo organiser account and one demo game per rule family. Safe to run twice."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("Demo data has a known password; it is only loaded with DEBUG on.")
        user_model = get_user_model()
        # An ordinary account: it organises the demo club through its membership. Its password is
        # printed and shown in the README, so it must never open the admin; a database made by an
        # older version (where demo was a superuser) is demoted here.
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"first_name": "Demo"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        elif user.is_staff or user.is_superuser:
            user.is_staff = user.is_superuser = False
            user.save(update_fields=["is_staff", "is_superuser"])
            user.user_permissions.clear()
            user.groups.clear()
            self.stdout.write(f"Demo organiser {DEMO_USERNAME} is no longer staff or superuser.")
        self.stdout.write(f"Demo organiser: {DEMO_USERNAME} / {DEMO_PASSWORD}")
        for family, house_rules, players, hands in DEMO_GAMES:
            if Game.objects.filter(owner=user, family=family, club=None).exists():
                continue
            with transaction.atomic():
                game = game_start(family=family, options=house_rules, players=players, owner=user)
                for outcome in hands:
                    hand_record(game=game, outcome=outcome, request_id=None, user=user)
            self.stdout.write(f"Demo {family} game: /g/{game.public_id}/")
        if not Club.objects.filter(name=DEMO_CLUB).exists():
            with transaction.atomic():
                club = club_create(name=DEMO_CLUB, user=user)
                for players, hands in DEMO_CLUB_GAMES:
                    game = game_start(
                        family="zoliky", options={"elimination": 0}, players=players, owner=user, club=club
                    )
                    for outcome in hands:
                        hand_record(game=game, outcome=outcome, request_id=None, user=user)
                    game_end(game=game, ended=True, user=user)
            self.stdout.write(f"Demo club: /c/{club.slug}/")
        demo_club = Club.objects.filter(name=DEMO_CLUB).first()
        if (
            demo_club is not None
            and not Tournament.objects.filter(club=demo_club, name=DEMO_TOURNAMENT).exists()
        ):
            with transaction.atomic():
                tournament = load_tournament(demo_club, user)
            self.stdout.write(f"Demo tournament: /t/{tournament.public_id}/")
        if demo_club is not None and not Season.objects.filter(club=demo_club).exists():
            season = load_season(demo_club, user)
            self.stdout.write(f"Demo season: /s/{season.public_id}/")
        if demo_club is not None and not Player.objects.filter(club=demo_club, user=user).exists():
            player = Player.objects.filter(
                club=demo_club, name=DEMO_PLAYER, merged_into=None, user=None
            ).first()
            if player is not None:
                player_claim(player=player, user=user, claim=True)
                self.stdout.write(f"Demo organiser plays as {player.name} in {demo_club.name}.")
        if demo_club is not None and not Federation.objects.filter(name=DEMO_FEDERATION).exists():
            federation = load_federation(demo_club, user)
            self.stdout.write(f"Demo federation: /f/{federation.slug}/")
