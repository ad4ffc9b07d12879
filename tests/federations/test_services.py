"""The federation's writes as its organisers, the clubs' organisers and a player use them:
clubs joining and leaving, the register, links and claims, merges and their undo, resends and
stale forms; every write recorded in the federation's history."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.db import IntegrityError, transaction

from engine.errors import EngineError
from federations.models import FederationChange, FederationClub, Person, PersonLink
from federations.services.federations import (
    Settings,
    federation_create,
    federation_update,
    organiser_add,
    organiser_remove,
)
from federations.services.links import claim, claim_answer, link_make, link_remove
from federations.services.memberships import club_answer, club_invite, membership_end
from federations.services.register import change_undo, person_add, person_edit, person_label, person_merge
from games.models import Player
from games.text.errors import error_message
from games.text.names import loose_key, name_key
from tests.factories import ClubFactory, UserFactory
from tests.federations.support import own_player, world

pytestmark = pytest.mark.django_db
Action = FederationChange.Action


def code_of(call) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(EngineError) as raised:
        call()
    return raised.value.code


def player(club, name: str) -> Player:  # type: ignore[no-untyped-def]
    return Player.objects.create(club=club, name=name, key=name_key(name), loose_key=loose_key(name))


def test_a_club_joins_by_invitation_and_either_side_ends_it() -> None:
    w = world(clubs=1)
    outsider_organiser = UserFactory.create()
    club = ClubFactory.create(name="Karetní klub Brno", organiser=outsider_organiser)
    invited = club_invite(
        federation=w.federation, club=club, counts_from=datetime.date(2025, 1, 1), user=w.director
    )
    assert invited.state == FederationClub.State.INVITED
    assert (
        code_of(lambda: club_invite(federation=w.federation, club=club, user=w.director))
        == "club_already_invited"
    )
    joined = club_answer(membership=invited, accept=True, version=invited.version, user=outsider_organiser)
    assert joined.state == FederationClub.State.MEMBER
    assert joined.counts_from == datetime.date(2025, 1, 1)  # the invitation's day is kept
    assert (
        code_of(lambda: club_invite(federation=w.federation, club=club, user=w.director))
        == "club_already_member"
    )
    # A form loaded before the club joined is stale.
    assert code_of(lambda: membership_end(membership=joined, by_club=True, version=invited.version)) == (
        "stale_membership"
    )
    left = membership_end(membership=joined, by_club=True, version=joined.version, user=outsider_organiser)
    assert left.state == FederationClub.State.ENDED
    # It can be invited again: a new period.
    again = club_invite(federation=w.federation, club=club, user=w.director)
    assert again.pk != left.pk and again.counts_from is None
    membership_end(membership=again, by_club=False, version=again.version, user=w.director)
    actions = list(
        FederationChange.objects.filter(federation=w.federation, club=club).values_list("action", flat=True)
    )
    assert actions[::-1] == [
        Action.CLUB_INVITED, Action.CLUB_JOINED, Action.CLUB_LEFT,
        Action.CLUB_INVITED, Action.INVITE_WITHDRAWN,
    ]  # fmt: skip


def test_an_invitation_without_a_day_counts_from_the_day_it_is_accepted() -> None:
    w = world(clubs=1)
    membership = FederationClub.objects.get(club=w.clubs[0])
    assert membership.counts_from == datetime.date.today()


def test_a_resent_invitation_changes_nothing_twice() -> None:
    w = world(clubs=0)
    club = ClubFactory.create(name="Třinec")
    request = uuid.uuid4()
    first = club_invite(federation=w.federation, club=club, request_id=request, user=w.director)
    second = club_invite(federation=w.federation, club=club, request_id=request, user=w.director)
    assert first.pk == second.pk
    assert FederationChange.objects.filter(action=Action.CLUB_INVITED).count() == 1
    # The same id for another write is refused, not taken for a resend.
    other = ClubFactory.create(name="Opava")
    assert code_of(lambda: club_invite(federation=w.federation, club=other, request_id=request)) == (
        "idempotency_key_reused"
    )


def test_the_register_numbers_entries_and_edits_them_against_stale_forms() -> None:
    w = world(clubs=1)
    eva = person_add(federation=w.federation, name="Eva Svobodová", home_club=w.clubs[0], user=w.director)
    jan = person_add(federation=w.federation, name="Jan Novák", user=w.director)
    assert (eva.number, jan.number) == (1, 2)
    assert person_label(w.federation, eva.number) == "CZ-00001"
    edited = person_edit(
        person=eva, name="Eva Nováková", home_club=None, version=eva.version, user=w.director
    )
    assert edited.name == "Eva Nováková" and edited.home_club is None
    assert (
        code_of(lambda: person_edit(person=eva, name="Eva", home_club=None, version=eva.version))
        == "stale_person"
    )
    stranger_club = ClubFactory.create(name="Not a member")
    assert code_of(lambda: person_add(federation=w.federation, name="X", home_club=stranger_club)) == (
        "home_club_not_member"
    )
    assert code_of(lambda: person_add(federation=w.federation, name="   ")) == "name_empty"


def test_a_club_organiser_links_players_one_entry_per_club() -> None:
    w = world()
    eva = person_add(federation=w.federation, name="Eva Svobodová", user=w.director)
    first, second = player(w.clubs[0], "Eva S."), player(w.clubs[0], "Eva Svobodová")
    link = link_make(
        federation=w.federation, club=w.clubs[0], player=first, person_id="cz-1", user=w.organisers[0]
    )
    assert link.person == eva and link.state == PersonLink.State.LINKED
    # The same entry to another player of the same club is refused, and says who holds it.
    refused = code_of(
        lambda: link_make(federation=w.federation, club=w.clubs[0], player=second, person_id="CZ-00001")
    )
    assert refused == "link_person_taken"
    # A player is linked to one entry.
    jan = person_add(federation=w.federation, name="Jan Novák", user=w.director)
    assert (
        code_of(
            lambda: link_make(
                federation=w.federation, club=w.clubs[0], player=first, person_id=str(jan.number)
            )
        )
        == "link_player_taken"
    )
    # Another club's player is the same person's: allowed.
    other = player(w.clubs[1], "Eva Svobodová")
    link_make(federation=w.federation, club=w.clubs[1], player=other, person_id="1", user=w.organisers[1])
    assert PersonLink.objects.filter(person=eva).count() == 2
    # A player of another club, an unknown id, a club that left.
    assert code_of(
        lambda: link_make(federation=w.federation, club=w.clubs[0], player=other, person_id="1")
    ) == ("link_player_other_club")
    assert code_of(
        lambda: link_make(federation=w.federation, club=w.clubs[0], player=second, person_id="99")
    ) == ("person_unknown")
    membership = FederationClub.objects.get(club=w.clubs[0], state=FederationClub.State.MEMBER)
    membership_end(membership=membership, by_club=True, version=membership.version)
    assert (
        code_of(
            lambda: link_make(
                federation=w.federation, club=w.clubs[0], player=second, person_id=str(jan.number)
            )
        )
        == "link_not_member"
    )
    # The club left: its links (and so its past results) stay.
    assert PersonLink.objects.filter(club=w.clubs[0]).count() == 1
    link_remove(link=link, version=link.version, user=w.organisers[0])
    assert not PersonLink.objects.filter(pk=link.pk).exists()
    assert FederationChange.objects.filter(action=Action.UNLINKED).count() == 1


def test_the_database_refuses_one_entry_twice_in_a_club() -> None:
    w = world(clubs=1)
    eva = person_add(federation=w.federation, name="Eva", user=w.director)
    a, b = player(w.clubs[0], "A"), player(w.clubs[0], "B")
    PersonLink.objects.create(federation=w.federation, person=eva, player=a, club=w.clubs[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        PersonLink.objects.create(federation=w.federation, person=eva, player=b, club=w.clubs[0])


def test_a_person_claims_his_entry_and_each_club_confirms() -> None:
    w = world()
    eva_user = UserFactory.create(username="eva")
    mine = [own_player(w.clubs[0], eva_user, "Eva S."), own_player(w.clubs[1], eva_user, "Evička")]
    eva = person_add(federation=w.federation, name="Eva Svobodová", user=w.director)
    made = claim(federation=w.federation, person_id="CZ-00001", name="eva svobodova", user=eva_user)
    assert {link.player_id for link in made} == {p.pk for p in mine}
    assert all(link.state == PersonLink.State.CLAIMED for link in made)
    # Claiming again makes nothing twice.
    assert claim(federation=w.federation, person_id="1", name="Eva Svobodová", user=eva_user) == []
    first, second = sorted(made, key=lambda link: link.club.name)
    confirmed = claim_answer(link=first, confirm=True, version=first.version, user=w.organisers[0])
    assert confirmed is not None and confirmed.state == PersonLink.State.LINKED
    eva.refresh_from_db()
    assert eva.user == eva_user  # the entry is his account's once a club confirmed
    assert claim_answer(link=second, confirm=False, version=second.version, user=w.organisers[1]) is None
    assert not PersonLink.objects.filter(pk=second.pk).exists()
    assert (
        code_of(lambda: claim_answer(link=second, confirm=True, version=second.version))
        == "claim_not_waiting"
    )


def test_a_strangers_claim_is_refused_without_saying_what_did_not_match() -> None:
    w = world()
    owner, stranger = UserFactory.create(username="eva"), UserFactory.create(username="mallory")
    own_player(w.clubs[0], owner, "Eva")
    own_player(w.clubs[0], stranger, "Mallory")
    eva = person_add(federation=w.federation, name="Eva Svobodová", user=w.director)
    first = claim(federation=w.federation, person_id="1", name="Eva Svobodová", user=owner)
    claim_answer(link=first[0], confirm=True, version=first[0].version, user=w.organisers[0])
    attempts = [("1", "Eva Svobodová"), ("1", "Jan"), ("77", "Eva Svobodová"), ("x", "Eva")]
    messages = set()
    for number, name in attempts:
        with pytest.raises(EngineError) as raised:
            claim(federation=w.federation, person_id=number, name=name, user=stranger)
        assert raised.value.code == "claim_no_match"
        messages.add(error_message(raised.value))
    assert len(messages) == 1 and "Eva" not in messages.pop()
    # Without a player of his own, nothing is looked up at all.
    nobody = UserFactory.create(username="nobody")
    assert code_of(
        lambda: claim(federation=w.federation, person_id="1", name="Eva Svobodová", user=nobody)
    ) == ("claim_no_players")
    assert PersonLink.objects.filter(person=eva).count() == 1


def test_a_merge_moves_the_links_and_undo_gives_them_back() -> None:
    w = world()
    eva_user = UserFactory.create(username="eva")
    mine = own_player(w.clubs[0], eva_user, "Eva")
    a = person_add(federation=w.federation, name="Eva Svobodová", user=w.director)
    b = person_add(federation=w.federation, name="Eva Svobodova", user=w.director)
    link = claim(federation=w.federation, person_id="1", name="Eva Svobodová", user=eva_user)[0]
    claim_answer(link=link, confirm=True, version=link.version, user=w.organisers[0])
    link_make(federation=w.federation, club=w.clubs[1], player=player(w.clubs[1], "E. S."), person_id="2")
    a.refresh_from_db()
    merge = person_merge(source=a, into=b, versions=(a.version, b.version), user=w.director)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.merged_into == b and a.user is None and b.user == eva_user
    assert set(PersonLink.objects.filter(person=b).values_list("player_id", flat=True)) >= {mine.pk}
    # The merged entry's number still finds the survivor.
    other = player(w.clubs[1], "Somebody")
    assert code_of(
        lambda: link_make(federation=w.federation, club=w.clubs[1], player=other, person_id="1")
    ) == ("link_person_taken")
    undo = change_undo(change=merge, user=w.director)
    a.refresh_from_db()
    b.refresh_from_db()
    assert undo.action == Action.UNMERGED and a.merged_into is None and a.user == eva_user
    assert list(PersonLink.objects.filter(person=a).values_list("player_id", flat=True)) == [mine.pk]
    assert code_of(lambda: change_undo(change=merge)) == "nothing_to_undo"
    # Undoing the undo merges again.
    again = change_undo(change=undo, user=w.director)
    a.refresh_from_db()
    assert again.action == Action.MERGED and a.merged_into_id == b.pk


def test_a_merge_of_two_entries_linked_in_one_club_is_refused() -> None:
    w = world(clubs=1)
    a = person_add(federation=w.federation, name="Jan Novák")
    b = person_add(federation=w.federation, name="Jan Novak")
    link_make(federation=w.federation, club=w.clubs[0], player=player(w.clubs[0], "Jan"), person_id="1")
    link_make(federation=w.federation, club=w.clubs[0], player=player(w.clubs[0], "Honza"), person_id="2")
    assert (
        code_of(lambda: person_merge(source=a, into=b, versions=(a.version, b.version))) == "merge_same_club"
    )
    assert code_of(lambda: person_merge(source=a, into=a, versions=(a.version, a.version))) == "merge_same"


def test_an_undo_after_a_later_change_is_refused() -> None:
    w = world(clubs=1)
    a = person_add(federation=w.federation, name="Jan Novák")
    b = person_add(federation=w.federation, name="Jan Novak")
    merge = person_merge(source=a, into=b, versions=(a.version, b.version))
    b.refresh_from_db()
    person_edit(person=b, name="Jan Novák st.", home_club=None, version=b.version)
    assert code_of(lambda: change_undo(change=merge)) == "undo_later_change"


def test_settings_and_organisers() -> None:
    w = world(clubs=0)
    f = w.federation
    wanted = Settings(name="Slovenská federácia", slug="sk-fed", visibility="members", counts="events",
                      id_prefix="sk", provisional_games=10, inactive_days=400)  # fmt: skip
    updated = federation_update(federation=f, settings=wanted, version=f.version, user=w.director)
    assert (updated.slug, updated.id_prefix, updated.counts) == ("sk-fed", "SK", "events")
    assert (
        code_of(lambda: federation_update(federation=f, settings=wanted, version=f.version))
        == "stale_federation"
    )
    change = FederationChange.objects.filter(action=Action.SETTINGS).get()
    assert change.data["counts"] == {"before": "games", "after": "events"}
    assert change.user_name == "director"
    helper = UserFactory.create(username="helper")
    added = organiser_add(federation=f, username="helper", user=w.director)
    assert code_of(lambda: organiser_add(federation=f, username="ghost")) == "organiser_unknown"
    organiser_remove(federation=f, organiser=added, user=helper)
    last = f.organisers.get()
    assert code_of(lambda: organiser_remove(federation=f, organiser=last)) == "organiser_last"
    assert Person.objects.count() == 0


def test_a_federation_created_twice_with_one_request_id_is_made_once() -> None:
    user = UserFactory.create()
    key = uuid.uuid4()
    first = federation_create(name="Polska federacja remika", user=user, request_id=key)
    again = federation_create(name="Polska federacja remika", user=user, request_id=key)
    assert again.pk == first.pk
    other = federation_create(name="Norsk rummyforbund", user=user)
    person = person_add(federation=other, name="Ola Nordmann", request_id=uuid.uuid4())
    change = FederationChange.objects.get(federation=other, action=Action.PERSON_ADDED)
    assert person.pk == change.data["person"]
    assert code_of(lambda: federation_create(name="X", user=user, request_id=change.request_id)) == (
        "idempotency_key_reused"
    )
