"""Every page that shows a table or a list, read on a phone (390 × 844 and 360 × 740) in the five
languages, on a club whose names are long: nothing reaches past the screen except inside a
scroll frame that shows it scrolls (its edge fade and its sticky first column), no word is
broken inside, no text is under 12 px, and every tap target is 24 × 24 px or spaced as WCAG
2.5.8 allows. The checks run in the page (one script per page view); the failures are listed
together, each with its page, language, width and element. A wide screen keeps the tables whole.

Read as a member of the club, once as each page opens and once with its "all columns" toggles
open; then the organiser's own pages (the hand form, the round's and tournament's tools). One
browser, one context per width, pages reused; one test per language, each seeding the live
server's transactional database (SQLite or PostgreSQL alike) once. With ``LAYOUT_SHOTS=<dir>``
the densest pages are saved there as screenshots at 360 px in Czech and Polish (and one at
1280 px, and the organiser's score sheet with its hand form). The turn timer's pages are read
as drawn and again running, with their settings open."""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, Membership, Player
from games.services.games import game_end, game_start
from games.services.hands import hand_record
from games.services.players import player_claim
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import season_settings
from tournaments import derived
from tournaments.models import Entry, Season, Tournament
from tournaments.rating_history import rebuild_club
from tournaments.services.entries import entries_add, entry_pin
from tournaments.services.final_stages import final_seat
from tournaments.services.penalties import (
    penalty_give,
)
from tournaments.services.round_seating import apart_set, round_seat
from tournaments.services.rounds import round_confirm, round_start
from tournaments.services.seasons import season_create
from tournaments.services.table_answers import table_answer
from tournaments.services.tournament_settings import Settings, tournament_create
from tournaments.table_answers import entry_key, own_path, table_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "table-Secret-1"
LANGUAGES = {"en": "en-GB", "cs": "cs-CZ", "sk": "sk-SK", "pl": "pl-PL", "nb": "nb-NO"}
WIDTHS = [(390, 844), (360, 740)]
LONG = "Maximilián Šťastný-Křižovnický"
LONG_PL = "Łucja Żółć-Wiśniewska"
ENTRANTS = [
    LONG, LONG_PL, "Bartłomiej Grzegorzewski", "Ingrid Solbakken-Haugland", "Kateřina Nováková",
    "Zuzana Hrubá", "Tomáš Dvořák", "Piotr Wiśniewski", "Katarína Šimková", "Eva Svobodová",
    "Ola Nordmann", "Jan Novák",
]  # fmt: skip
# Six at one Žolíky table, the widest score sheet.
SIX = ENTRANTS[:6]
# The densest pages, saved as screenshots (by their names in seed()'s answer).
SHOTS = {
    "season",
    "federation-season",
    "federation-season-card",
    "ratings",
    "tournament-standings",
    "tournament-player",
    "sheet-six",
    "rating-history",
    "federation-open",
    "federation-opens",
}


def seed() -> dict[str, str]:
    """A club with long names everywhere: club evenings of Žolíky (one with six players), a
    Rummikub tournament of twelve with two rounds played (ties broken by per-table game score),
    a season counting both, the ratings. Returns the pages' paths."""
    organiser = UserFactory.create(username="olga")
    reader = UserFactory.create(username="mona")
    club = ClubFactory.create(
        name="Klub přátel společenských her Žolíky a Rummikub Praha-Vinohrady", organiser=organiser
    )
    today = timezone.localdate()
    # Club evenings: four of four players and one of six.
    for shift in range(4):
        names = [ENTRANTS[(shift + i) % 8] for i in range(4)]
        game = game_start(
            family="zoliky", options={"elimination": 0}, players=names, owner=organiser, club=club
        )
        for hand in range(2):
            closer = names[(hand + shift) % 4]
            left = {n: 5 + (7 * i + 3 * hand) % 31 for i, n in enumerate(names) if n != closer}
            hand_record(
                game=game,
                outcome={"closer": closer, "from_hand": False, "left": left},
                request_id=None,
                user=organiser,
            )
        game_end(game=game, ended=True, user=organiser)
    sheet = game_start(family="zoliky", options={"elimination": 0}, players=SIX, owner=organiser, club=club)
    for hand in range(7):
        closer = SIX[hand % 6]
        left = {n: 3 + (11 * i + 5 * hand) % 47 for i, n in enumerate(SIX) if n != closer}
        hand_record(
            game=sheet,
            outcome={"closer": closer, "from_hand": hand % 3 == 0, "left": left},
            request_id=None,
            user=organiser,
        )
    tournament = tournament_create(
        club=club,
        settings=Settings.from_mapping(
            {
                "name": "Podzimní pohár v Rummikubu o putovní trofej Vinohrad",
                "date": today,
                "family": "rummikub",
                "rounds": 3,
                "round_hands": 1,
                "seating": "balanced",
                "seat_order": "rotating",
                "points": "table",
                # Round 3 is seated hidden, and the standings are frozen from round 2: the
                # pages' notes and the organiser's publish and reveal buttons are audited too.
                "hide_seating": True,
                "freeze_rounds": 2,
            }
        ),
        user=organiser,
    )
    entries_add(tournament=tournament, names=ENTRANTS, checked_in=True, user=organiser)
    for number in (1, 2):
        played = round_seat(tournament=tournament, number=number, user=organiser)
        played = round_start(played=played, round_version=played.version, user=organiser)
        for table in played.tables.select_related("game").order_by("number"):
            assert table.game is not None
            names = [seat.name for seat in table.game.seats.all()]
            winner = names[(number + table.number) % len(names)]
            left = {n: 4 + (7 * i + 5 * number) % 29 for i, n in enumerate(names) if n != winner}
            hand_record(
                game=table.game, outcome={"winner": winner, "left": left}, request_id=None, user=organiser
            )
        round_confirm(played=played, round_version=played.version, user=organiser)
    # Two long names who must not meet, both kept at table 1: the seating report names them.
    long_entries = {
        e.player.name: e
        for e in Entry.objects.filter(tournament=tournament, player__name__in=[LONG, LONG_PL]).select_related(
            "player"
        )
    }
    tournament.refresh_from_db()
    apart_set(
        tournament=tournament,
        first=long_entries[LONG],
        second=long_entries[LONG_PL],
        keep=True,
        version=tournament.version,
        user=organiser,
    )
    for pinned in long_entries.values():
        entry_pin(entry=pinned, table=1, version=pinned.version, user=organiser)
    round_seat(tournament=tournament, number=3, user=organiser)
    asked = _tables_confirming(club, organiser)
    # A penalty and a warning with long reasons: the marked rows and their notes on a phone.
    long_entry = Entry.objects.get(tournament=tournament, player__name=LONG)
    tournament.refresh_from_db()
    tournament = penalty_give(
        tournament=tournament, entry_id=long_entry.pk, kind="points", points=Decimal("2.5"),
        round_number=2, reason="Opakovaně pomalá hra i po upozornění rozhodčího (nepřiměřeně dlouhé tahy)",
        version=tournament.version, user=organiser,
    )  # fmt: skip
    tournament = penalty_give(
        tournament=tournament, entry_id=Entry.objects.get(tournament=tournament, player__name=LONG_PL).pk,
        kind="warning", points=None, round_number=None, reason="Telefon na stole během hry",
        version=tournament.version, user=organiser,
    )  # fmt: skip
    knockout = _knockout(club, organiser, today)
    rebuild_club(club=club)
    season = season_create(
        club=club,
        settings=season_settings(
            name="Podzimní liga Žolíků a Rummikubu 2026/2027",
            families=["zoliky", "rummikub"],
            min_games=2,
            qualify=4,
        ),
        user=organiser,
    )
    derived.apply(club.pk)
    add_member(club, reader, Membership.Role.MEMBER)
    # Her own games list: a game of hers beside the club's.
    game_start(family="rummikub", options={}, players=[LONG_PL, LONG, "Ola Nordmann"], owner=reader)
    # Her Carousel evening with five long names: the turn timer's chess clocks.
    chess = game_start(family="carousel", options={}, players=ENTRANTS[:5], owner=reader)
    long_player = Player.objects.get(club=club, name=LONG)
    other = Player.objects.get(club=club, name=LONG_PL)
    entry = Entry.objects.get(tournament=tournament, player=long_player)
    assert (
        Season.objects.filter(pk=season.pk).exists() and Tournament.objects.filter(pk=tournament.pk).exists()
    )
    assert Game.objects.filter(club=club).count() == 4 + 1 + 6 + 2 + 5  # the tables confirming, the knockout
    slug, t, s = club.slug, tournament.public_id, season.public_id
    federation_lists = seed_federation_lists(club, organiser, tournament)
    return seed_federation_side(club, organiser) | {
        **federation_lists,
        **seed_federation_seasons(club, organiser),
        "club": f"/c/{slug}/",
        "club-players": f"/c/{slug}/players/",
        "player": f"/c/{slug}/players/{long_player.pk}/",
        "rating-history": f"/c/{slug}/players/{long_player.pk}/ratings/",
        "head-to-head": f"/c/{slug}/players/{long_player.pk}/versus/?other={other.pk}",
        "ratings": f"/c/{slug}/ratings/",
        "seasons": f"/c/{slug}/seasons/",
        "tournaments": f"/c/{slug}/tournaments/",
        "season": f"/s/{s}/",
        "league-card": f"/s/{s}/players/{long_player.pk}/",
        "tournament": f"/t/{t}/",
        "tournament-standings": f"/t/{t}/standings/",
        "round": f"/t/{t}/r/1/",
        "round-seated": f"/t/{t}/r/3/",
        "apart": f"/t/{t}/apart/",
        "round-unpublished": f"/t/{t}/r/3/",
        "tournament-settings": f"/t/{t}/settings/",
        "tournament-player": f"/t/{t}/p/{entry.pk}/",
        "penalties": f"/t/{t}/penalties/",
        # A knockout final: a stage's row says what it did, the shared third place says why.
        "knockout-standings": f"/t/{knockout.public_id}/standings/",
        "knockout-player": f"/t/{knockout.public_id}/p/{knockout.entries.get(player__name=LONG).pk}/",
        "sheet-six": f"/g/{sheet.public_id}/",
        # A round whose tables confirm their own result: a player's own page, its round.
        "own-table": asked["own"],
        "round-answers": asked["round"],
        "round-links": asked["links"],
        "timer-six": f"/g/{sheet.public_id}/timer/",
        "timer-chess": f"/g/{chess.public_id}/timer/",
        "games": "/games/",
        "home": "/",
        **seed_federation_clubs(club, organiser, reader),
    }


def seed_federation_clubs(club: Any, organiser: Any, reader: Any) -> dict[str, str]:
    """The club in a federation of long names with a second member club (members only): a
    person linked in both with games in both, the member's own claim waiting for the club, and
    another federation's invitation waiting. Returns the club's federations page (its
    organiser's), the member's claim page and the person's page."""
    import datetime

    from federations.services.federations import federation_create
    from federations.services.links import claim, link_make
    from federations.services.memberships import club_invite
    from federations.services.register import person_add
    from tests.federations.played import club_player, played
    from tests.federations.support import join

    director = UserFactory.create(username="fedor")
    federation = federation_create(
        name="Česká federace společenských her Žolíky a Rummikub", user=director, id_prefix="CZ"
    )
    other = ClubFactory.create(name="Karetní klub Brno-Královo Pole a přátelé Rummikubu", organiser=director)
    join(federation, club, organiser, director)
    join(federation, other, director, director)
    invited = federation_create(name="Slovenská federácia spoločenských hier a Rummikubu", user=director)
    club_invite(federation=invited, club=club, user=director)
    person_add(federation=federation, name=LONG, user=director)
    mine, theirs = Player.objects.get(club=club, name=LONG), club_player(other, LONG)
    link_make(federation=federation, club=club, player=mine, person_id="1", user=organiser)
    link_make(federation=federation, club=other, player=theirs, person_id="1", user=director)
    now = timezone.now()
    for n in range(6):
        played(
            other, theirs, place=n % 4 + 1, size=4, when=now - datetime.timedelta(days=n), family="rummikub"
        )
    other.visibility = other.Visibility.MEMBERS
    other.save(update_fields=["visibility"])
    # The member's own player, her claim waiting for the club.
    player_claim(player=Player.objects.get(club=club, name=LONG_PL), user=reader, claim=True)
    person_add(federation=federation, name=LONG_PL, user=director)
    claim(federation=federation, person_id="CZ-00002", name=LONG_PL, user=reader)
    return {
        **seed_federation_opens(federation, club, other, organiser, director),
        "federations-club": f"/c/{club.slug}/federations/",
        "federation-claim": f"/f/{federation.slug}/claim/",
        "federation-person": f"/f/{federation.slug}/register/1/",
    }


def seed_federation_opens(
    federation: Any, club: Any, other: Any, organiser: Any, director: Any
) -> dict[str, str]:
    """An open of long names hosted by the club, with entries from both member clubs (the
    host's own players and guests from the other club's register, made players of the host),
    and a past open: the federation's opens and the open's page (its organiser's too)."""
    from federations.services.opens import open_enter, open_host
    from federations.services.register import person_add
    from tests.tournaments.support import tournament as a_tournament

    cup = a_tournament(
        club,
        organiser,
        players=ENTRANTS[2:5],
        name="Velká cena federace v Rummikubu a Žolících, otevřený turnaj pro všechny kluby",
        date=timezone.localdate() + datetime.timedelta(days=14),
    )
    hosted = open_host(federation=federation, tournament=cup, user=organiser)
    for name in ("Kristýna Šťastná-Křižovnická", "Bartholomew Featherstonehaugh-Smythe", LONG_PL):
        guest = person_add(federation=federation, name=name, home_club=other, user=director)
        open_enter(open_=hosted, person_id=str(guest.number), user=director)
    open_enter(open_=hosted, person_id="1", user=director)
    past = a_tournament(
        other, director, players=ENTRANTS[:2], name="Zimní open Karetního klubu Brno-Královo Pole",
        date=timezone.localdate() - datetime.timedelta(days=30),
    )  # fmt: skip
    open_host(federation=federation, tournament=past, user=director)
    return {
        "federation-opens": f"/f/{federation.slug}/opens/",
        "federation-open": f"/f/{federation.slug}/opens/{cup.public_id}/",
        "open-tournament": f"/t/{cup.public_id}/",
    }


def seed_federation_side(club: Any, organiser: Any) -> dict[str, str]:
    """A federation with a long name run by the club's organiser: the club a member, another
    long-named club invited and a third gone; a register of the long names (two alike, merged
    and the merge undone, so the history has both). Returns the federation organisers' pages."""
    from federations.models import FederationChange
    from federations.services.federations import federation_create
    from federations.services.memberships import club_answer, club_invite, membership_end
    from federations.services.register import change_undo, person_add, person_merge

    federation = federation_create(
        name="Česká federace společenských karetních her Žolíky a Rummikub", user=organiser, id_prefix="CZ"
    )
    joined = club_invite(federation=federation, club=club, counts_from=timezone.localdate(), user=organiser)
    club_answer(membership=joined, accept=True, version=joined.version, user=organiser)
    invited = ClubFactory.create(name="Spolek přátel deskových a karetních her Ostrava-Poruba")
    club_invite(federation=federation, club=invited, user=organiser)
    gone = ClubFactory.create(name="Klub společenských her Hradec Králové-Nový Hradec")
    ended = club_invite(federation=federation, club=gone, user=organiser)
    membership_end(membership=ended, by_club=False, version=ended.version, user=organiser)
    people = [
        person_add(federation=federation, name=name, home_club=club, user=organiser) for name in ENTRANTS
    ]
    alike = person_add(federation=federation, name="Maximilian Stastny-Krizovnicky", user=organiser)
    merge = person_merge(
        source=alike, into=people[0], versions=(alike.version, people[0].version), user=organiser
    )
    change_undo(change=merge, user=organiser)
    assert FederationChange.objects.filter(federation=federation, action="unmerged").exists()
    f = federation.slug
    return {
        "federations": "/federations/",
        "federation": f"/f/{f}/",
        "federation-register": f"/f/{f}/register/",
        "federation-settings": f"/f/{f}/settings/",
        "federation-clubs": f"/f/{f}/clubs/",
        "federation-history": f"/f/{f}/history/",
        "federation-entry-edit": f"/f/{f}/register/{people[0].number}/edit/",
        "federation-import": "/federations/import/",
    }


def seed_federation_lists(club: Any, organiser: Any, cup: Tournament) -> dict[str, str]:
    """A federation with the club as its member, counting from a day before two Rummikub games
    of long names played last month (so this month's published list has lines), four long-named
    players linked to its register: its live list, this month's published list and the
    tournament's rating report."""
    from federations.publication import month_of, publish
    from federations.ratings import refresh
    from federations.services.federations import federation_create
    from federations.services.links import link_make
    from federations.services.memberships import club_answer, club_invite
    from federations.services.register import person_add
    from tests.federations.support import at, dated
    from tests.tournaments.fault_club import play

    month = month_of()
    before = month - datetime.timedelta(days=10)
    federation = federation_create(
        name="Česká federace společenských her Žolíky a Rummikub", user=organiser, id_prefix="CZ"
    )
    invited = club_invite(
        federation=federation, club=club, counts_from=before - datetime.timedelta(days=1), user=organiser
    )
    club_answer(membership=invited, accept=True, version=invited.version, user=organiser)
    for shift in range(2):
        names = [ENTRANTS[(shift + i) % 4] for i in range(4)]
        dated(play(club, organiser, names, names[0]), at(before + datetime.timedelta(days=shift)))
    for number, name in enumerate(ENTRANTS[:4], start=1):
        person_add(federation=federation, name=name, home_club=club, user=organiser)
        player = Player.objects.get(club=club, name=name)
        link_make(federation=federation, club=club, player=player, person_id=str(number), user=organiser)
    refresh(federation)
    published = publish(federation, "rummikub", month)
    assert published is not None and published.lines.count() == 4
    # The games played here moved the club's own numbers too: brought up to date again.
    derived.apply(club.pk)
    slug = federation.slug
    return {
        "federation-ratings": f"/f/{slug}/ratings/rummikub/",
        "federation-published": f"/f/{slug}/ratings/rummikub/{month:%Y-%m}/",
        "federation-report": f"/t/{cup.public_id}/federation/{slug}/report/",
    }


def seed_federation_seasons(club: Any, organiser: Any) -> dict[str, str]:
    """A federation of the club with a season over two families: long-named people, the top 3
    qualifying, those with fewer than two tournaments below the line. Its list of seasons, the
    standings, a long-named person's league card, and the organiser's settings and new-season
    pages."""
    from federations.services.federations import federation_create
    from federations.services.memberships import club_answer, club_invite
    from tests.federations.seasons_support import seeded_season

    federation = federation_create(
        name="Česká federace společenských her Žolíky a Rummikub: Velká cena", user=organiser, id_prefix="CZ"
    )
    invited = club_invite(federation=federation, club=club, counts_from=timezone.localdate(), user=organiser)
    club_answer(membership=invited, accept=True, version=invited.version, user=organiser)
    season = seeded_season(
        federation,
        12,
        families=("rummikub", "zoliky"),
        qualify=3,
        min_events=2,
        name="Velká cena České republiky v Rummikubu a Žolících 2026",
        long_names=True,
    )
    f, s = federation.slug, season.public_id
    return {
        "federation-seasons": f"/f/{f}/seasons/",
        "federation-season": f"/f/{f}/seasons/{s}/",
        "federation-season-family": f"/f/{f}/seasons/{s}/?family=zoliky",
        "federation-season-card": f"/f/{f}/seasons/{s}/people/1/",
        "federation-season-settings": f"/f/{f}/seasons/{s}/settings/",
        "federation-season-new": f"/f/{f}/seasons/new/",
    }


def _tables_confirming(club: Any, organiser: Any) -> dict[str, str]:
    """A tournament whose tables confirm their own result, its first round played and answered
    at table 1 (two confirm, the longest name disputes with a long word): the paths of that
    player's own page, the round's page and its table links."""
    cup = tournament_create(
        club=club,
        settings=Settings.from_mapping(
            {
                "name": "Rummikub: stoly potvrzují své výsledky",
                "date": timezone.localdate(),
                "family": "rummikub",
                "rounds": 2,
                "round_hands": 1,
                "table_min": 3,
                "table_max": 3,
                "table_preferred": 3,
                "seating": "balanced",
                "seat_order": "random",
                "points": "table",
                "table_confirm": True,
            }
        ),
        user=organiser,
    )
    entries_add(tournament=cup, names=ENTRANTS[:6], checked_in=True, user=organiser)
    played = round_seat(tournament=cup, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    for table in played.tables.select_related("game").order_by("number"):
        assert table.game is not None
        names = [seat.name for seat in table.game.seats.all()]
        left = {n: 5 * (i + 1) for i, n in enumerate(names[1:])}
        hand_record(
            game=table.game, outcome={"winner": names[0], "left": left}, request_id=None, user=organiser
        )
    first = played.tables.get(number=1)
    entries = [seat.entry_id for seat in first.seats.order_by("position")]
    seen = table_sheet(first).tag
    for entry in entries[:2]:
        table_answer(tournament=cup, entry_id=entry, key=entry_key(cup, entry), disputed=False, seen=seen)
    word = "Nesouhlasí součet třetího kola"
    last = entries[2]
    table_answer(tournament=cup, entry_id=last, key=entry_key(cup, last), disputed=True, seen=seen, word=word)
    t = cup.public_id
    return {"own": own_path(cup, last), "round": f"/t/{t}/r/1/", "links": f"/t/{t}/r/1/links/"}


def _knockout(club: Any, organiser: Any, today: Any) -> Tournament:
    """A gin knockout of four, decided by its final: LONG wins his semi-final and loses the final."""
    cup = tournament_create(
        club=club,
        settings=Settings.from_mapping(
            {
                "name": "Vyřazovací turnaj v ginu",
                "date": today,
                "family": "gin",
                "rounds": 1,
                "round_hands": 1,
                "seating": "balanced",
                "seat_order": "random",
                "points": "table",
                "final": "knockout",
                "final_size": 4,
                "final_counts": "decides",
            }
        ),
        user=organiser,
    )
    entries_add(tournament=cup, names=ENTRANTS[:4], checked_in=True, user=organiser)
    stages = [round_seat(tournament=cup, number=1, user=organiser), None, None]
    for number, played in enumerate(stages):
        played = played or final_seat(tournament=cup, user=organiser)
        played = round_start(played=played, round_version=played.version, user=organiser)
        for table in played.tables.select_related("game"):
            assert table.game is not None
            names = [seat.name for seat in table.game.seats.all()]
            # LONG wins until the final (number 2); there the other player wins.
            first = LONG if (LONG in names) == (number < 2) else next(n for n in names if n != LONG)
            other = next(n for n in names if n != first)
            outcome = {"knocker": first, "deadwood": {first: 0, other: 30}}
            hand_record(game=table.game, outcome=outcome, request_id=None, user=organiser)
        round_confirm(played=played, round_version=played.version, user=organiser)
    return cup


# What the club's organiser sees beside it: the hand form on the score sheet, the round's and
# the tournament's organiser tools (a seated round with its report, not yet published; the live
# standings while frozen; the settings; who must not meet; the penalties), the club's roster
# with its roles, and a round whose tables confirm their own result (its page and its table
# links with each player's own link).
ORGANISER_PAGES = (
    "sheet-six",
    "round",
    "round-seated",
    "round-unpublished",
    "apart",
    "tournament",
    "tournament-standings",
    "tournament-settings",
    "club-players",
    "home",
    "round-answers",
    "round-links",
    "penalties",
    "federations-club",
    # A federation open: its page with the host's tools, its tournament with the open's panel.
    "federation-open",
    "open-tournament",
    # The federation's organiser: its page and register with his tools, and the tools' pages.
    "federation",
    "federation-register",
    "federation-settings",
    "federation-clubs",
    "federation-history",
    "federation-entry-edit",
    "federation-season-settings",
    "federation-season-new",
)

# Pages a member cannot open (they carry the tables' and players' own links).
ORGANISER_ONLY = {
    "round-links", "penalties", "apart", "tournament-settings", "federations-club",
    "federation-settings", "federation-clubs", "federation-history", "federation-entry-edit",
    "federation-season-settings", "federation-season-new",
}  # fmt: skip

# The checks, run in the page (a function returning [check, element, detail] per failure).
AUDIT = (Path(__file__).parent / "layout_audit.js").read_text(encoding="utf-8")
HIDDEN = (
    "() => [...document.querySelectorAll('.phone-more')]"
    ".filter((e) => getComputedStyle(e).display === 'none').length"
)
# Opens every "all columns" toggle on the page; how many it opened.
OPEN_ALL = """
() => {
  const toggles = [...document.querySelectorAll(
    "details.phone-more-toggle:not([open]) > summary, details.penalty-note:not([open]) > summary"
  )]
    .filter((s) => s.getClientRects().length);
  toggles.forEach((s) => s.click());
  return toggles.length;
}
"""


@pytest.fixture
def phones(browser: Any) -> Iterator[dict[int, Any]]:
    """One context per width (its language set per page by the address's prefix)."""
    pages = {}
    for width, height in WIDTHS:
        context = browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=True, has_touch=True, locale="en-GB"
        )
        context.set_default_timeout(15_000)
        pages[width] = context.new_page()
    yield pages
    for page in pages.values():
        page.context.close()


def log_in(page: Any, base: str, username: str = "mona") -> None:
    page.goto(f"{base}/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit].primary").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


# One test per language: a failure names it, and one language is checked alone with -k.
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_table_and_list_reads_on_a_phone_in_every_language(
    language: str, phones: dict[int, Any], browser: Any, live_server: Any
) -> None:
    every = seed()
    paths = {label: path for label, path in every.items() if label not in ORGANISER_ONLY}
    shots = os.environ.get("LAYOUT_SHOTS", "")
    failures: list[str] = []
    views = opened = 0
    prefix = "" if language == "en" else f"/{language}"
    for width, page in phones.items():
        log_in(page, live_server.url)
        for label, path in paths.items():
            response = page.goto(f"{live_server.url}{prefix}{path}")
            assert response is not None and response.status == 200, (label, language, response)
            assert page.locator("html").get_attribute("lang") == language
            views += 1
            for check, element, detail in page.evaluate(AUDIT):
                failures.append(f"{label} [{language} {width}px] {check}: {element}: {detail}")
            shot = bool(shots) and width == 360 and language in ("cs", "pl") and label in SHOTS
            if shot:
                Path(shots).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{shots}/{label}-{language}-{width}.png", full_page=True)
            # The turn timer running, its times and who starts open.
            if label.startswith("timer-"):
                page.locator("#timer-tap").click()
                page.locator(".timer-settings summary").click()
                for check, element, detail in page.evaluate(AUDIT):
                    failures.append(f"{label} open [{language} {width}px] {check}: {element}: {detail}")
            # One tap shows the other columns: the table then scrolls in its frame.
            if page.evaluate(OPEN_ALL):
                opened += 1
                for check, element, detail in page.evaluate(AUDIT):
                    failures.append(
                        f"{label} all columns [{language} {width}px] {check}: {element}: {detail}"
                    )
                hidden = page.evaluate(HIDDEN)
                if hidden:
                    failures.append(f"{label} all columns [{language} {width}px] {hidden} cells still hidden")
                if shot:
                    page.screenshot(path=f"{shots}/{label}-{language}-{width}-all.png", full_page=True)
                    if label == "tournament-standings":
                        page.emulate_media(color_scheme="dark")
                        page.screenshot(path=f"{shots}/{label}-{language}-{width}-dark.png", full_page=True)
                        page.emulate_media(color_scheme="light")
    assert views == len(paths) * len(WIDTHS)

    # The organiser, who records hands at the table and runs the evening from his phone.
    for width, height in WIDTHS:
        context = browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=True, has_touch=True, locale="en-GB"
        )
        try:
            page = context.new_page()
            log_in(page, live_server.url, "olga")
            for label in ORGANISER_PAGES:
                response = page.goto(f"{live_server.url}{prefix}{every[label]}")
                assert response is not None and response.status == 200, (label, language, response)
                views += 1
                if shots and width == 360 and language in ("cs", "pl") and label == "sheet-six":
                    form = page.locator("form.hand-form")
                    form.screenshot(path=f"{shots}/{label}-organiser-{language}-{width}.png")
                for check, element, detail in page.evaluate(AUDIT):
                    failures.append(
                        f"{label} as organiser [{language} {width}px] {check}: {element}: {detail}"
                    )
        finally:
            context.close()
    # The season, the rating list, the tournament's overview and standings, a player's rounds
    # (on his public page and by his own link), the knockout's standings and a finalist's rounds;
    # the federation's live list, a published list and a tournament's rating report; the open's
    # tournament's overview; a federation season's standings, of all families and of one.
    if opened != 14 * len(WIDTHS):
        failures.append(f"{opened} page views had an 'all columns' toggle, not {14 * len(WIDTHS)}")

    # A wide screen keeps the whole table: no frame scrolls, nothing reaches past the screen
    # (read once, in Czech).
    if language == "cs":
        wide = browser.new_context(viewport={"width": 1280, "height": 900}, locale="cs-CZ")
        try:
            page = wide.new_page()
            for label in ("season", "tournament-standings", "ratings"):
                page.goto(f"{live_server.url}/cs{paths[label]}")
                for check, element, detail in page.evaluate(AUDIT):
                    failures.append(f"{label} [cs 1280px] {check}: {element}: {detail}")
                hidden = page.evaluate(HIDDEN)
                if hidden:
                    failures.append(f"{label} [cs 1280px] {hidden} cells hidden as on a phone")
            if shots:
                page.goto(f"{live_server.url}/cs{paths['tournament-standings']}")
                page.screenshot(path=f"{shots}/tournament-standings-cs-1280.png", full_page=True)
        finally:
            wide.close()
    print(f"{len(failures)} layout failures in {views} page views")
    assert not failures, f"{len(failures)} layout failures:\n" + "\n".join(
        failures[: int(os.environ.get("LAYOUT_SHOW", "400"))]
    )
