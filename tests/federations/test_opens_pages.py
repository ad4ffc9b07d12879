"""The opens' pages: hosting from the tournament's page, the federation's list of opens, an
open's page (entering oneself, a club organiser's list, the federation organiser's id field,
withdrawing, refusals at the field), ending an open, members-only federations' 404 for
outsiders, and the open page's queries, the same at 5 and at 50 entries."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from federations.models import Federation, FederationOpen, Person
from federations.selectors.opens import open_page
from federations.services.opens import open_enter
from federations.services.register import person_add
from tests.factories import UserFactory
from tests.federations.opens_support import OpenWorld, an_open
from tests.federations.support import world
from tests.tournaments.support import tournament
from tournaments.models import Entry
from tournaments.services.round_seating import round_seat

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def open_url(o: OpenWorld, name: str = "open") -> str:
    return reverse(f"federations:{name}", kwargs={"slug": o.w.federation.slug, "public_id": o.cup.public_id})


def test_the_tournament_page_hosts_an_open_and_then_links_it() -> None:
    w = world()
    cup = tournament(w.clubs[0], w.organisers[0], players=4, name="Jarní open")
    organiser = signed_in(w.organisers[0])
    detail = reverse("tournaments:detail", kwargs={"public_id": cup.public_id})
    page = organiser.get(detail)
    assert "Host it as a federation open" in page.text
    # Another member club's organiser sees no form.
    assert "Host it as a federation open" not in signed_in(w.organisers[1]).get(detail).text
    host = reverse("federations:open_host", kwargs={"public_id": cup.public_id})
    key = str(uuid.uuid4())
    for _ in range(2):
        done = organiser.post(
            host, {"federation": w.federation.slug, "self_entry": "on", "request_id": key}, follow=True
        )
    assert done.status_code == 200 and "Jarní open" in done.text
    assert FederationOpen.objects.filter(tournament=cup, self_entry=True).count() == 1
    assert "An open of" in organiser.get(detail).text
    assert signed_in(w.organisers[1]).post(host, {"federation": w.federation.slug}).status_code == 403
    assert organiser.post(host, {"federation": "nowhere"}, follow=True).status_code == 200
    # The federation's list of opens shows it, with its club and entry count.
    listing = Client().get(reverse("federations:opens", kwargs={"slug": w.federation.slug}))
    assert "Jarní open" in listing.text and w.clubs[0].name in listing.text and "4 entries" in listing.text
    assert "/opens/" in Client().get(reverse("federations:detail", kwargs={"slug": w.federation.slug})).text


def test_a_registered_person_enters_himself_and_withdraws() -> None:
    o = an_open()
    eve = signed_in(o.eve_user)
    page = eve.get(open_url(o))
    assert "Enter" in page.text and "Eve Malá" not in page.text
    eve.post(open_url(o, "open_enter"), {"person": str(o.eve.number), "request_id": str(uuid.uuid4())})
    page = eve.get(open_url(o))
    assert "You are entered." in page.text and "Eve Malá" in page.text and "Withdraw" in page.text
    eve.post(open_url(o, "open_withdraw"), {"person": str(o.eve.number)})
    assert "Eve Malá" not in eve.get(open_url(o)).text


def test_a_club_organiser_picks_his_people_and_a_stranger_is_refused_at_the_field() -> None:
    o = an_open()
    guest = signed_in(o.w.organisers[1])
    page = guest.get(open_url(o))
    assert "Enter your club&#x27;s people" in page.text or "Enter your club's people" in page.text
    assert "Ann Nováková" in page.text and "Bob Dvořák" in page.text and "Eve Malá" not in page.text
    done = guest.post(open_url(o, "open_enter"), {"form": "pick", "person": str(o.ann.number)}, follow=True)
    assert "is entered" in done.text
    # Someone else's person through a forged form: refused at the field, no 500.
    refused = guest.post(open_url(o, "open_enter"), {"person": str(o.eve.number)})
    assert refused.status_code == 400 and "You cannot enter this person" in refused.text
    stranger = signed_in(UserFactory.create())
    refused = stranger.post(open_url(o, "open_enter"), {"person": "CZ-99999"})
    assert refused.status_code == 400 and "You cannot enter this person" in refused.text
    assert Entry.objects.filter(tournament=o.cup).count() == 5


def test_the_federation_organiser_enters_by_id_and_hears_when_entries_are_closed() -> None:
    o = an_open()
    director = signed_in(o.w.director)
    assert "Enter a person from the register" in director.get(open_url(o)).text
    unknown = director.post(open_url(o, "open_enter"), {"person": "CZ-99999"})
    assert unknown.status_code == 400 and "There is no entry CZ-99999" in unknown.text
    director.post(open_url(o, "open_enter"), {"person": f"CZ-{o.bob.number:05d}"})
    twice = director.post(open_url(o, "open_enter"), {"person": f"CZ-{o.bob.number:05d}"})
    assert twice.status_code == 400 and "entered already" in twice.text
    round_seat(tournament=o.cup, number=1, user=o.w.organisers[0])
    closed = director.post(open_url(o, "open_enter"), {"person": str(o.eve.number)})
    assert closed.status_code == 400 and "Entries are closed" in closed.text


def test_the_host_ends_the_open_before_round_1() -> None:
    o = an_open()
    organiser = signed_in(o.w.organisers[0])
    detail = reverse("tournaments:detail", kwargs={"public_id": o.cup.public_id})
    assert "It is no longer an open" in organiser.get(detail).text
    done = organiser.post(open_url(o, "open_end"), {"request_id": str(uuid.uuid4())}, follow=True)
    assert "no longer an open" in done.text and not FederationOpen.objects.exists()
    assert Client().get(open_url(o)).status_code == 404


def test_a_members_only_federations_opens_are_404_to_outsiders() -> None:
    o = an_open()
    Federation.objects.filter(pk=o.w.federation.pk).update(visibility=Federation.Visibility.MEMBERS)
    for url in (open_url(o), reverse("federations:opens", kwargs={"slug": o.w.federation.slug})):
        assert Client().get(url).status_code == 404
        assert signed_in(UserFactory.create()).get(url).status_code == 404
        assert signed_in(o.w.organisers[1]).get(url).status_code == 200
    assert signed_in(UserFactory.create()).post(open_url(o, "open_enter"), {"person": "1"}).status_code == 404


def _open_with(entries: int, tag: str) -> OpenWorld:
    o = an_open(players=0, tag=tag)
    for n in range(entries):
        person = person_add(federation=o.w.federation, name=f"Hráč {n}", home_club=o.w.clubs[1])
        open_enter(open_=o.open_, person_id=str(person.number), user=o.w.director)
    return o


@pytest.mark.parametrize("who", ["visitor", "club organiser"])
def test_the_open_page_reads_the_same_queries_at_5_and_50_entries(
    who: str, django_assert_num_queries: Any
) -> None:
    counts = []
    for entries, tag in ((5, "a"), (50, "b")):
        o = _open_with(entries, tag)
        user = o.w.organisers[1] if who == "club organiser" else UserFactory.create()
        open_ = FederationOpen.objects.select_related("tournament__club", "federation").get(pk=o.open_.pk)
        with CaptureQueriesContext(connection) as queries:
            page = open_page(open_=open_, user=user)
        assert len(page.entries) == entries
        counts.append(len(queries))
    assert counts[0] == counts[1]
    with django_assert_num_queries(counts[0]):
        open_page(open_=open_, user=user)


def test_merged_person_is_not_offered() -> None:
    o = an_open()
    Person.objects.filter(pk=o.bob.pk).update(merged_into=o.ann)
    page = signed_in(o.w.organisers[1]).get(open_url(o))
    assert "Bob Dvořák" not in page.text
