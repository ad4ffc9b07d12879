"""Federation opens through the services: a member club's organiser hosts (marked rated, a
recorded change, a resend changes nothing twice), register entries enter (themselves, by
their own club's organiser, by the federation's), the refusals, the guest player made and
linked in the host club and used again, withdrawing, round 1 seeded by the federation's list
through the real seating service, and the open's games moving the list through the worker."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.utils import timezone

from engine.errors import EngineError
from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationOpen,
    FederationRating,
    FederationRatingEvent,
    Person,
    PersonLink,
    RatedTournament,
)
from federations.ratings import differences, refresh
from federations.services.events import tournament_rate
from federations.services.federations import Settings, federation_update
from federations.services.opens import open_end, open_enter, open_host, open_withdraw
from federations.services.register import person_add
from games.models import Player
from tests.factories import ClubFactory, UserFactory
from tests.federations.opens_support import OpenWorld, an_open, club_player
from tests.federations.support import world
from tests.tournaments.support import play_round, tournament
from tournaments.models import CurrentRating, Entry, Table, Tournament
from tournaments.services.entries import entry_check_in
from tournaments.services.round_seating import rating_order, round_seat
from tournaments.tournament_data import tournament_data

pytestmark = pytest.mark.django_db


def code_of(call: object) -> str:
    with pytest.raises(EngineError) as raised:
        call()  # type: ignore[operator]
    return raised.value.code


def entered(o: OpenWorld) -> list[str]:
    return sorted(Entry.objects.filter(tournament=o.cup).values_list("player__name", flat=True))


# ---------------------------------------------------------------------------- hosting


def test_a_member_clubs_organiser_hosts_an_open_marked_rated_and_seeded() -> None:
    w = world()
    cup = tournament(w.clubs[0], w.organisers[0], players=4)
    assert not cup.seed_by_rating
    key = uuid.uuid4()
    first = open_host(federation=w.federation, tournament=cup, user=w.organisers[0], request_id=key)
    again = open_host(federation=w.federation, tournament=cup, user=w.organisers[0], request_id=key)
    assert first.pk == again.pk and FederationOpen.objects.count() == 1
    assert RatedTournament.objects.filter(federation=w.federation, tournament=cup).exists()
    hosted = FederationChange.objects.filter(action="open_hosted")
    assert hosted.count() == 1 and hosted.get().data["tournament"] == cup.public_id
    cup.refresh_from_db()
    assert cup.seed_by_rating
    # Hosting again without a key is no second open either.
    open_host(federation=w.federation, tournament=cup, user=w.organisers[0])
    assert FederationOpen.objects.count() == 1 and hosted.count() == 1


def test_only_a_member_clubs_organiser_may_host() -> None:
    w = world()
    cup = tournament(w.clubs[0], w.organisers[0], players=4)
    # Another member club's organiser, the federation's organiser, a stranger: not the host.
    for user in (w.organisers[1], UserFactory.create()):
        assert code_of(lambda u=user: open_host(federation=w.federation, tournament=cup, user=u)) == (
            "open_not_club_organiser"
        )
    outsider = UserFactory.create()
    elsewhere = ClubFactory.create(organiser=outsider)
    theirs = tournament(elsewhere, outsider, players=4)
    assert code_of(lambda: open_host(federation=w.federation, tournament=theirs, user=outsider)) == (
        "link_not_member"
    )
    assert not FederationOpen.objects.exists() and not RatedTournament.objects.exists()


def test_a_started_tournament_cannot_become_an_open() -> None:
    w = world()
    cup = tournament(w.clubs[0], w.organisers[0], players=4)
    round_seat(tournament=cup, number=1, user=w.organisers[0])
    assert code_of(lambda: open_host(federation=w.federation, tournament=cup, user=w.organisers[0])) == (
        "open_started"
    )


def test_ending_an_open_before_round_1_takes_back_its_mark() -> None:
    o = an_open()
    open_enter(open_=o.open_, person_id=str(o.bob.number), user=o.w.director)
    open_end(open_=o.open_, user=o.w.organisers[0])
    assert not FederationOpen.objects.exists() and not RatedTournament.objects.exists()
    assert FederationChange.objects.filter(action="open_ended").count() == 1
    # The players entered stay the club tournament's.
    assert "Bob Dvořák" in entered(o)
    # A mark made before hosting stays when the open ends.
    w = world(tag="b")
    cup = tournament(w.clubs[0], w.organisers[0], players=4)
    tournament_rate(federation=w.federation, tournament=cup, rated=True, user=w.organisers[0])
    hosted = open_host(federation=w.federation, tournament=cup, user=w.organisers[0])
    open_end(open_=hosted, user=w.director)
    assert RatedTournament.objects.filter(tournament=cup).exists()


def test_an_open_cannot_end_after_round_1_is_seated_nor_by_others() -> None:
    o = an_open()
    assert code_of(lambda: open_end(open_=o.open_, user=o.w.organisers[1])) == "open_not_club_organiser"
    round_seat(tournament=o.cup, number=1, user=o.w.organisers[0])
    assert code_of(lambda: open_end(open_=o.open_, user=o.w.organisers[0])) == "open_started"
    assert FederationOpen.objects.filter(pk=o.open_.pk).exists()


# ---------------------------------------------------------------------------- entries


def test_a_person_enters_himself_when_the_open_allows_it() -> None:
    o = an_open()
    entry = open_enter(open_=o.open_, person_id=str(o.eve.number), user=o.eve_user)
    assert entry.player.name == "Eve Malá" and entry.player.club_id == o.cup.club_id
    assert FederationChange.objects.filter(action="open_entered", data__person=o.eve.pk).count() == 1
    closed = an_open(self_entry=False, tag="x")
    assert (
        code_of(
            lambda: open_enter(open_=closed.open_, person_id=str(closed.eve.number), user=closed.eve_user)
        )
        == "open_not_allowed"
    )


def test_a_clubs_organiser_enters_his_linked_and_home_people_only() -> None:
    o = an_open()
    guest_organiser = o.w.organisers[1]
    # Ann is linked to the second club's player; Bob's home club is the second club.
    open_enter(open_=o.open_, person_id=str(o.ann.number), user=guest_organiser)
    open_enter(open_=o.open_, person_id=str(o.bob.number), user=guest_organiser)
    # Eve is neither (her claim of a player there waits for the club): refused, as an unknown
    # number is, saying nothing of the register.
    PersonLink.objects.create(
        federation=o.w.federation, person=o.eve, player=club_player(o.w.clubs[1].pk, "Eve"),
        club=o.w.clubs[1], state=PersonLink.State.CLAIMED,
    )  # fmt: skip
    assert code_of(lambda: open_enter(open_=o.open_, person_id=str(o.eve.number), user=guest_organiser)) == (
        "open_not_allowed"
    )
    assert code_of(lambda: open_enter(open_=o.open_, person_id="CZ-99999", user=guest_organiser)) == (
        "open_not_allowed"
    )
    assert "Ann Nováková" in entered(o) and "Bob Dvořák" in entered(o)


def test_the_federations_and_the_hosts_organisers_enter_anyone_and_hear_why_not() -> None:
    o = an_open()
    open_enter(open_=o.open_, person_id=f"CZ-{o.eve.number:05d}", user=o.w.director)
    open_enter(open_=o.open_, person_id=str(o.ann.number), user=o.w.organisers[0])
    assert code_of(lambda: open_enter(open_=o.open_, person_id="CZ-99999", user=o.w.director)) == (
        "person_unknown"
    )
    assert code_of(lambda: open_enter(open_=o.open_, person_id="nonsense", user=o.w.director)) == (
        "person_unknown"
    )
    merged = person_add(federation=o.w.federation, name="Old Entry")
    Person.objects.filter(pk=merged.pk).update(merged_into=o.bob)
    assert code_of(lambda: open_enter(open_=o.open_, person_id=str(merged.number), user=o.w.director)) == (
        "person_merged"
    )


def test_a_stranger_is_refused_before_anything_is_looked_up() -> None:
    o = an_open()
    stranger = UserFactory.create()
    for person_id in (str(o.ann.number), "CZ-99999", "nonsense"):
        assert (
            code_of(lambda p=person_id: open_enter(open_=o.open_, person_id=p, user=stranger))
            == "open_not_allowed"
        )
    assert code_of(lambda: open_enter(open_=o.open_, person_id=str(o.ann.number), user=None)) == (
        "open_not_allowed"
    )
    # An organiser of a club outside the federation is a stranger too.
    outsider = UserFactory.create()
    ClubFactory.create(organiser=outsider)
    assert code_of(lambda: open_enter(open_=o.open_, person_id=str(o.bob.number), user=outsider)) == (
        "open_not_allowed"
    )
    assert entered(o) == sorted(["Anna", "Bára", "Cyril", "David"])


def test_twice_is_refused_and_a_resend_changes_nothing() -> None:
    o = an_open()
    key = uuid.uuid4()
    first = open_enter(open_=o.open_, person_id=str(o.bob.number), user=o.w.director, request_id=key)
    again = open_enter(open_=o.open_, person_id=str(o.bob.number), user=o.w.director, request_id=key)
    assert first.pk == again.pk
    assert code_of(lambda: open_enter(open_=o.open_, person_id=str(o.bob.number), user=o.w.director)) == (
        "open_already_entered"
    )
    assert FederationChange.objects.filter(action="open_entered").count() == 1


def test_entries_close_when_round_1_is_seated_or_at_the_closing_time() -> None:
    o = an_open()
    round_seat(tournament=o.cup, number=1, user=o.w.organisers[0])
    assert code_of(lambda: open_enter(open_=o.open_, person_id=str(o.bob.number), user=o.w.director)) == (
        "open_closed"
    )
    later = an_open(tag="c")
    FederationOpen.objects.filter(pk=later.open_.pk).update(entries_close=timezone.now())
    later.open_.refresh_from_db()
    assert (
        code_of(lambda: open_enter(open_=later.open_, person_id=str(later.bob.number), user=later.w.director))
        == "open_closed"
    )


def test_a_guest_player_is_made_and_linked_in_the_host_club_then_used_again() -> None:
    o = an_open()
    host = o.cup.club
    players_before = Player.objects.filter(club=host).count()
    entry = open_enter(open_=o.open_, person_id=str(o.bob.number), user=o.w.director)
    link = PersonLink.objects.get(person=o.bob, club=host)
    assert link.state == "linked" and link.player_id == entry.player_id
    assert entry.player.name == "Bob Dvořák"
    assert Player.objects.filter(club=host).count() == players_before + 1
    open_withdraw(open_=o.open_, person_id=str(o.bob.number), user=o.w.director)
    # Another tournament of the club, another open: the same player.
    second = tournament(host, o.w.organisers[0], players=2, name="Zimní open")
    second_open = open_host(federation=o.w.federation, tournament=second, user=o.w.organisers[0])
    again = open_enter(open_=second_open, person_id=str(o.bob.number), user=o.w.director)
    assert again.player_id == entry.player_id
    assert Player.objects.filter(club=host).count() == players_before + 1
    # The person's player linked in the host club already is the one entered.
    own = club_player(host.pk, "Annie")
    PersonLink.objects.create(federation=o.w.federation, person=o.ann, player=own, club=host)
    assert open_enter(open_=o.open_, person_id=str(o.ann.number), user=o.w.director).player_id == own.pk


def test_a_guest_named_as_a_host_player_gets_his_id_after_his_name() -> None:
    o = an_open()
    club_player(o.cup.club_id, "Bob Dvořák")  # somebody else, perhaps: never linked by name
    entry = open_enter(open_=o.open_, person_id=str(o.bob.number), user=o.w.director)
    assert entry.player.name == f"Bob Dvořák (CZ-{o.bob.number:05d})"


def test_withdraw_by_the_same_people_before_round_1() -> None:
    o = an_open()
    open_enter(open_=o.open_, person_id=str(o.eve.number), user=o.eve_user)
    open_enter(open_=o.open_, person_id=str(o.ann.number), user=o.w.organisers[1])
    assert code_of(lambda: open_withdraw(open_=o.open_, person_id=str(o.ann.number), user=o.eve_user)) == (
        "open_not_allowed"
    )
    open_withdraw(open_=o.open_, person_id=str(o.eve.number), user=o.eve_user)
    open_withdraw(open_=o.open_, person_id=str(o.ann.number), user=o.w.organisers[1])
    assert "Eve Malá" not in entered(o) and "Ann Nováková" not in entered(o)
    assert FederationChange.objects.filter(action="open_withdrawn").count() == 2
    assert code_of(lambda: open_withdraw(open_=o.open_, person_id=str(o.eve.number), user=o.eve_user)) == (
        "open_not_entered"
    )
    open_enter(open_=o.open_, person_id=str(o.bob.number), user=o.w.director)
    round_seat(tournament=o.cup, number=1, user=o.w.organisers[0])
    assert code_of(lambda: open_withdraw(open_=o.open_, person_id=str(o.bob.number), user=o.w.director)) == (
        "open_closed"
    )


# ---------------------------------------------------------------------------- seeding and the list


def rated(player: Player) -> None:
    """The club list's best player (a rating no federation line comes near)."""
    assert player.club_id is not None
    CurrentRating.objects.create(
        club_id=player.club_id, family="rummikub", player=player, mu=45, sigma=1, games=50,
        last_played=timezone.now(), evening=timezone.localdate(),
    )  # fmt: skip


def _check_all_in(cup: Tournament, user: object) -> None:
    for entry in Entry.objects.filter(tournament=cup, checked_in=False):
        entry_check_in(entry=entry, checked_in=True, version=entry.version, user=user)  # type: ignore[arg-type]


def test_round_1_of_an_open_is_seeded_by_the_federation_list() -> None:
    o = an_open(players=6)
    host_organiser = o.w.organisers[0]
    for person in (o.ann, o.bob):
        open_enter(open_=o.open_, person_id=str(person.number), user=o.w.director)
    # Bob: the federation's best, no rating at the host club. Ann: second on the list.
    # Anna: the host club's best on its own list, but on no federation list.
    now = timezone.now()
    for person, rating in ((o.bob, 1900), (o.ann, 1700)):
        FederationRating.objects.create(
            federation=o.w.federation, family="rummikub", person=person, mu=30, sigma=2,
            rating=rating, key=person.key, games=20, last_played=now,
        )  # fmt: skip
    anna = Player.objects.get(club=o.cup.club, name="Anna")
    rated(anna)
    _check_all_in(o.cup, host_organiser)
    seated = round_seat(tournament=o.cup, number=1, user=host_organiser)
    tables = {
        t.number: [s.entry.player.name for s in t.seats.select_related("entry__player").order_by("position")]
        for t in Table.objects.filter(round=seated)
    }
    assert len(tables) == 2
    # The serpentine: the first seed at table 1, the second and third at table 2. By the club's
    # list Anna would be the first seed, at table 1.
    assert "Bob Dvořák" in tables[1] and "Ann Nováková" in tables[2] and "Anna" in tables[2]
    data = tournament_data(o.cup)
    order = [data.entries[pk].player.name for pk in rating_order(o.cup, list(data.entries.values()))]
    assert order[:3] == ["Bob Dvořák", "Ann Nováková", "Anna"]


def test_a_club_tournament_is_still_seeded_by_the_clubs_list() -> None:
    w = world()
    cup = tournament(w.clubs[0], w.organisers[0], players=8, seed_by_rating=True)
    hana = Player.objects.get(club=w.clubs[0], name="Hana")
    rated(hana)
    seated = round_seat(tournament=cup, number=1, user=w.organisers[0])
    first = Table.objects.get(round=seated, number=1)
    assert "Hana" in [s.entry.player.name for s in first.seats.select_related("entry__player")]


def test_an_opens_games_move_the_federation_list_through_the_worker() -> None:
    o = an_open(players=2)
    # A federation counting only marked tournaments: the open's tables count because it is one.
    current = Settings.of(o.w.federation)
    federation_update(
        federation=o.w.federation,
        settings=Settings(**{**current.__dict__, "counts": Federation.Counts.EVENTS}),
        version=o.w.federation.version,
    )
    o.w.federation.refresh_from_db()
    FederationClub.objects.update(counts_from=datetime.date(2026, 1, 1))
    for person in (o.ann, o.bob):
        open_enter(open_=o.open_, person_id=str(person.number), user=o.w.director)
    _check_all_in(o.cup, o.w.organisers[0])
    play_round(o.cup, 1, o.w.organisers[0])
    refresh(o.w.federation)
    assert (
        FederationRatingEvent.objects.filter(
            federation=o.w.federation, game__tournament_table__round__tournament=o.cup
        ).count()
        == 4
    )
    listed = set(
        FederationRating.objects.filter(federation=o.w.federation).values_list("person__name", flat=True)
    )
    assert {"Ann Nováková", "Bob Dvořák"} <= listed
    assert differences(o.w.federation) == []
