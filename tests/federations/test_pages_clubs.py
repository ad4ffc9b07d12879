"""The clubs' and persons' federation pages as their readers use them: a club's organisers
accept an invitation, link their players by the federation id and answer claims; a player
claims his entry and follows it; a person's page shows his players and games across the clubs
to whoever sees the federation, a members-only club's own player name only to its members."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from federations import derived
from federations.models import FederationClub, Person, PersonLink
from federations.ratings import refresh
from federations.services.links import claim, claim_answer, link_make
from federations.services.memberships import club_invite
from federations.services.register import person_add, person_merge
from games.models import Club, Membership
from tests.factories import ClubFactory, UserFactory, add_member
from tests.federations.played import club_player, played
from tests.federations.support import own_player, world

pytestmark = pytest.mark.django_db


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_url(club: Club) -> str:
    return reverse("federations:club", kwargs={"slug": club.slug})


def version_of(html: str, action: str) -> str:
    """The version the form posting to ``action`` carries."""
    form = re.search(rf'action="{re.escape(action)}".*?name="version" value="(\d+)"', html, re.S)
    assert form is not None, action
    return form.group(1)


def test_the_club_organiser_accepts_an_invitation_and_links_a_player() -> None:
    w = world(clubs=1)
    organiser = UserFactory.create(username="olga")
    club = ClubFactory.create(name="Karetní klub Brno", organiser=organiser)
    club_invite(federation=w.federation, club=club, user=w.director)
    browser = client_of(organiser)
    html = browser.get(page_url(club)).content.decode()
    assert "Invitations waiting" in html and w.federation.name in html
    accept = reverse("federations:club_accept", kwargs={"slug": club.slug, "fed": w.federation.slug})
    answer = browser.post(accept, {"version": version_of(html, accept)}, follow=True)
    assert "The club is a member of" in answer.content.decode()
    assert FederationClub.objects.get(club=club, federation=w.federation).state == "member"

    person = person_add(federation=w.federation, name="Jana Nováková", user=w.director)
    jana = club_player(club, "Jana N.")
    link = reverse("federations:club_link", kwargs={"slug": club.slug, "fed": w.federation.slug})
    prefix = f"f{w.federation.pk}"
    # A wrong id: refused at the field, with what was chosen and typed kept.
    refused = browser.post(link, {f"{prefix}-player": jana.pk, f"{prefix}-person": "CZ-00999"})
    text = refused.content.decode()
    assert refused.status_code == 200
    assert "There is no entry CZ-00999 in the register." in text
    assert 'value="CZ-00999"' in text
    assert not PersonLink.objects.exists()
    done = browser.post(link, {f"{prefix}-player": jana.pk, f"{prefix}-person": "cz 1"}, follow=True)
    text = done.content.decode()
    assert "Jana N. is linked to Jana Nováková." in text
    assert PersonLink.objects.get(player=jana).person == person
    assert "CZ-00001</span> Jana Nováková" in text

    # The link removed.
    row = PersonLink.objects.get(player=jana)
    remove = reverse(
        "federations:club_unlink", kwargs={"slug": club.slug, "fed": w.federation.slug, "pk": row.pk}
    )
    browser.post(remove, {"version": row.version})
    assert not PersonLink.objects.exists()


def test_the_club_organiser_declines_and_leaves() -> None:
    w = world(clubs=1)
    club = w.clubs[0]
    browser = client_of(w.organisers[0])
    html = browser.get(page_url(club)).content.decode()
    leave = reverse("federations:club_leave", kwargs={"slug": club.slug, "fed": w.federation.slug})
    # A stale form is refused and changes nothing.
    stale = browser.post(leave, {"version": "999"}, follow=True).content.decode()
    assert "Someone changed this membership meanwhile" in stale
    assert FederationClub.objects.get(club=club).state == "member"
    browser.post(leave, {"version": version_of(html, leave)})
    assert FederationClub.objects.get(club=club).state == "ended"
    assert "The club belongs to no federation." in browser.get(page_url(club)).content.decode()


def test_the_club_confirms_and_refuses_claims_and_the_player_sees_each_state() -> None:
    w = world()
    player_user = UserFactory.create(username="petr")
    mine = [own_player(club, player_user, f"Petr {n}") for n, club in enumerate(w.clubs)]
    person_add(federation=w.federation, name="Petr Svoboda", user=w.director)
    me = client_of(player_user)
    claim_url = reverse("federations:claim", kwargs={"slug": w.federation.slug})
    page = me.get(claim_url).content.decode()
    assert "Petr 0" in page and "Petr 1" in page and "not linked" in page
    sent = me.post(claim_url, {"person": "CZ-00001", "name": "petr svoboda"}, follow=True)
    assert "Claims sent" in sent.content.decode()
    assert sent.content.decode().count("waiting for the club") == 2

    first = client_of(w.organisers[0])
    html = first.get(page_url(w.clubs[0])).content.decode()
    assert "Claims waiting for the club" in html
    assert re.search(
        r"claims <span class=\"federation-id\">CZ-00001</span> Petr Svoboda \(account petr\)", html
    )
    waiting = PersonLink.objects.get(player=mine[0])
    confirm = reverse(
        "federations:club_confirm",
        kwargs={"slug": w.clubs[0].slug, "fed": w.federation.slug, "pk": waiting.pk},
    )
    done = first.post(confirm, {"version": version_of(html, confirm)}, follow=True).content.decode()
    assert "Claim confirmed: Petr 0 is linked to Petr Svoboda." in done

    second = client_of(w.organisers[1])
    html = second.get(page_url(w.clubs[1])).content.decode()
    other = PersonLink.objects.get(player=mine[1])
    refuse = reverse(
        "federations:club_refuse",
        kwargs={"slug": w.clubs[1].slug, "fed": w.federation.slug, "pk": other.pk},
    )
    assert (
        "Claim refused."
        in second.post(refuse, {"version": version_of(html, refuse)}, follow=True).content.decode()
    )

    page = me.get(claim_url).content.decode()
    assert "linked to CZ-00001" in page
    assert "not linked" in page  # the refused one
    assert Person.objects.get().user == player_user


def test_a_strangers_claim_gets_the_same_refusal_whatever_he_typed() -> None:
    w = world()
    person_add(federation=w.federation, name="Petr Svoboda", user=w.director)
    held = UserFactory.create(username="holder")
    own_player(w.clubs[0], held, "Holder")
    stranger = UserFactory.create(username="stranger")
    own_player(w.clubs[0], stranger, "Stranger")
    browser = client_of(stranger)
    url = reverse("federations:claim", kwargs={"slug": w.federation.slug})
    answers = set()
    for person, name in [
        ("CZ-00001", "Someone Else"),
        ("CZ-00077", "Petr Svoboda"),
        ("nonsense", "Petr Svoboda"),
    ]:
        html = browser.post(url, {"person": person, "name": name}).content.decode()
        found = re.search(r'<p class="error" role="alert">(.*?)</p>', html)
        assert found is not None
        answers.add(found.group(1))
    assert answers == {
        "No register entry matches that id and name. Check them with your federation&#x27;s organisers."
    }
    assert not PersonLink.objects.exists()


def test_a_member_and_an_outsider_are_refused_the_club_page() -> None:
    w = world(clubs=1)
    club = w.clubs[0]
    member = UserFactory.create()
    add_member(club, member, Membership.Role.MEMBER)
    assert client_of(member).get(page_url(club)).status_code == 403
    assert client_of(UserFactory.create()).get(page_url(club)).status_code == 403  # a public club
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    assert client_of(UserFactory.create()).get(page_url(club)).status_code == 404
    assert Client().get(page_url(club)).status_code == 302  # to log in
    # The member's club pages show no link to it; the organiser's do.
    assert page_url(club) not in client_of(member).get(f"/c/{club.slug}/").content.decode()
    assert page_url(club) in client_of(w.organisers[0]).get(f"/c/{club.slug}/").content.decode()


def test_anonymous_claimants_are_sent_to_log_in() -> None:
    w = world(clubs=1)
    answer = Client().get(reverse("federations:claim", kwargs={"slug": w.federation.slug}))
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def linked_person(w: Any, *, hidden: bool = False) -> tuple[Person, list[Any]]:
    """A person linked to a player in each club; the second club members-only if ``hidden``."""
    person = person_add(federation=w.federation, name="Marie Dvořáková", user=w.director)
    players = []
    for n, club in enumerate(w.clubs):
        player = club_player(club, f"Marie {n}")
        link_make(federation=w.federation, club=club, player=player, person_id="1", user=w.organisers[n])
        players.append(player)
    if hidden:
        w.clubs[1].visibility = Club.Visibility.MEMBERS
        w.clubs[1].save()
    return person, players


def person_url(w: Any, number: int) -> str:
    return reverse("federations:person", kwargs={"slug": w.federation.slug, "number": number})


def test_the_person_page_shows_games_of_both_clubs_newest_first() -> None:
    w = world()
    _person, players = linked_person(w)
    now = timezone.now()
    played(w.clubs[0], players[0], place=2, size=4, when=now - datetime.timedelta(days=3))
    played(w.clubs[1], players[1], place=1, size=3, when=now - datetime.timedelta(days=1), family="rummikub")
    played(w.clubs[0], players[0], place=3, size=5, when=now - datetime.timedelta(days=2))
    html = Client().get(person_url(w, 1)).content.decode()
    assert "CZ-00001" in html and "Marie Dvořáková" in html
    places = re.findall(r"place (\d) of (\d)", html)
    assert places == [("1", "3"), ("3", "5"), ("2", "4")]
    assert "Marie 0" in html and "Marie 1" in html


def test_the_person_page_hides_a_members_only_clubs_own_player_name() -> None:
    w = world()
    linked_person(w, hidden=True)
    outsider = Client().get(person_url(w, 1)).content.decode()
    assert "Marie 0" in outsider and "Klub 1" in outsider
    assert "Marie 1" not in outsider
    member = client_of(w.organisers[1]).get(person_url(w, 1)).content.decode()
    assert "Marie 1" in member


def test_a_merged_entry_redirects_and_the_owner_sees_this_is_you() -> None:
    w = world(clubs=1)
    first = person_add(federation=w.federation, name="Karel Malý", user=w.director)
    second = person_add(federation=w.federation, name="Karel Maly", user=w.director)
    person_merge(source=second, into=first, versions=(second.version, first.version), user=w.director)
    answer = Client().get(person_url(w, 2))
    assert answer.status_code == 302 and answer["Location"] == person_url(w, 1)
    assert Client().get(person_url(w, 99)).status_code == 404
    assert Client().get(person_url(w, 2**40)).status_code == 404
    karel = UserFactory.create()
    own_player(w.clubs[0], karel, "Karel")
    claim(federation=w.federation, person_id="1", name="Karel Malý", user=karel)
    claim_answer(link=PersonLink.objects.get(), confirm=True, version=1, user=w.organisers[0])
    html = client_of(karel).get(person_url(w, 1)).content.decode()
    assert "This is you." in html
    assert reverse("federations:claim", kwargs={"slug": w.federation.slug}) in html


def test_a_members_only_federation_is_not_found_by_outsiders() -> None:
    w = world(clubs=1)
    person_add(federation=w.federation, name="Karel Malý", user=w.director)
    w.federation.visibility = "members"
    w.federation.save()
    assert Client().get(person_url(w, 1)).status_code == 404
    assert client_of(w.organisers[0]).get(person_url(w, 1)).status_code == 200


@pytest.mark.parametrize("links", [1, 5])
def test_the_person_page_reads_in_the_same_queries_whatever_its_links(
    links: int, django_assert_num_queries: Any
) -> None:
    w = world(clubs=links)
    person_add(federation=w.federation, name="Marie Dvořáková", user=w.director)
    for n, club in enumerate(w.clubs):
        player = club_player(club, f"Marie {n}")
        link_make(federation=w.federation, club=club, player=player, person_id="1", user=w.organisers[n])
        played(club, player, place=1, size=2, when=timezone.now())
    derived.everything_changed(w.federation)  # the games were written directly: rate them all
    refresh(w.federation)
    browser = client_of(UserFactory.create())
    with django_assert_num_queries(10):  # his lines in the federation's seasons: one of them
        page = browser.get(person_url(w, 1))
    assert page.status_code == 200 and page.context["page"].ratings[0].games == links


@pytest.mark.parametrize("size", [20, 500])
def test_the_club_page_reads_in_the_same_queries_whatever_its_players(
    size: int, django_assert_num_queries: Any
) -> None:
    w = world()
    club = w.clubs[0]
    person_add(federation=w.federation, name="Marie Dvořáková", user=w.director)
    players = [club_player(club, f"Hráč {n:03d}") for n in range(size)]
    link_make(federation=w.federation, club=club, player=players[0], person_id="1", user=w.organisers[0])
    claimant = UserFactory.create()
    own_player(w.clubs[1], claimant, "Claimant")
    own = own_player(club, claimant, "Claimant")
    person_add(federation=w.federation, name="Claimant", user=w.director)
    claim(federation=w.federation, person_id="2", name="Claimant", user=claimant)
    other = ClubFactory.create(organiser=w.organisers[0])
    club_invite(federation=w.federation, club=other, user=w.director)
    club_invite(federation=w.federation.__class__.objects.create(name="Druhá", slug="druha"), club=club)
    assert PersonLink.objects.filter(player=own).exists()
    browser = client_of(w.organisers[0])
    with django_assert_num_queries(7):
        assert browser.get(page_url(club)).status_code == 200
