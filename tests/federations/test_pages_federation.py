"""The federation organisers' pages as they use them: a new federation, its settings (a stale
form refused at the field), clubs invited, accepting and ended, the register with its
duplicates merged and the merge undone from the history, the history's CSV; who sees what
(a members-only federation is a 404 to outsiders; the tools are the organisers' alone)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from federations.models import Federation, FederationChange, FederationClub, Person
from federations.selectors.federations import federation_list, federation_page
from federations.selectors.history import history_page
from federations.selectors.register import register_page
from federations.services.memberships import club_answer
from federations.services.register import person_add
from tests.factories import ClubFactory, UserFactory, add_member
from tests.federations.support import world

pytestmark = pytest.mark.django_db
Action = FederationChange.Action
# The session and user, the federation, whether he runs it, the register (a count and a page),
# the member clubs and the duplicates; the history: a count and a page.
PAGE_QUERIES = (8, 8, 6)


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response: Any) -> str:
    return response.content.decode()


def test_an_organiser_creates_a_federation_and_changes_its_settings() -> None:
    user = UserFactory.create(username="founder")
    client = client_for(user)
    assert "New federation" in text(client.get("/federations/"))
    new = {"name": "Slovenská federácia žolíkov", "id_prefix": "sk", "request_id": str(uuid.uuid4())}
    response = client.post("/federations/new/", new)
    assert client.post("/federations/new/", new)["Location"] == response["Location"]  # a resend
    federation = Federation.objects.get(name="Slovenská federácia žolíkov")
    assert response.status_code == 302 and response["Location"] == f"/f/{federation.slug}/"
    assert federation.id_prefix == "SK"
    page = text(client.get(f"/f/{federation.slug}/"))
    assert "Settings and organisers" in page and "0 persons in the register" in page
    # A bad prefix is refused at its field, the name kept.
    refused = client.post("/federations/new/", {"name": "Druhá", "id_prefix": "toolong7"})
    assert refused.status_code == 200 and 'value="Druhá"' in text(refused)

    settings = f"/f/{federation.slug}/settings/"
    form = {
        "name": "Slovenská federácia", "slug": "sk-zoliky", "visibility": "members", "counts": "events",
        "id_prefix": "SK", "provisional_games": 3, "inactive_days": 200, "version": federation.version,
        "request_id": str(uuid.uuid4()),
    }  # fmt: skip
    assert client.post(settings, form)["Location"] == "/f/sk-zoliky/settings/"
    federation.refresh_from_db()
    assert (federation.slug, federation.visibility, federation.inactive_days) == ("sk-zoliky", "members", 200)
    # The same form again (its version now stale), with another name: refused, the typed name kept.
    stale = client.post("/f/sk-zoliky/settings/", {**form, "name": "Iná", "request_id": str(uuid.uuid4())})
    assert stale.status_code == 200
    body = text(stale)
    assert "Someone changed the federation meanwhile" in body and 'value="Iná"' in body
    assert Federation.objects.get(pk=federation.pk).name == "Slovenská federácia"

    # Organisers: one added by name, an unknown name refused at the field, the last one kept.
    other = UserFactory.create(username="second")
    add = "/f/sk-zoliky/settings/organisers/add/"
    assert client.post(add, {"username": "nobody", "request_id": str(uuid.uuid4())}).status_code == 200
    client.post(add, {"username": "second", "request_id": str(uuid.uuid4())})
    assert "second" in text(client.get("/f/sk-zoliky/settings/"))
    remove = "/f/sk-zoliky/settings/organisers/remove/"
    client.post(remove, {"username": "second", "request_id": str(uuid.uuid4())})
    assert not federation.organisers.filter(user=other).exists()
    response = client.post(remove, {"username": "founder", "request_id": str(uuid.uuid4())}, follow=True)
    assert "at least one organiser" in text(response)


def test_the_organiser_invites_a_club_which_accepts_and_later_ends() -> None:
    w = world(clubs=1)
    client = client_for(w.director)
    club_organiser = UserFactory.create()
    club = ClubFactory.create(name="Karetní klub Brno", organiser=club_organiser)
    url = f"/f/{w.federation.slug}/clubs/"
    unknown = client.post(url, {"club": "no-such-club", "request_id": str(uuid.uuid4())})
    assert "There is no club at the address no-such-club" in text(unknown)
    # The club's page address pasted, with a day its games count from.
    response = client.post(
        url,
        {
            "club": f"https://example.org/cs/c/{club.slug}/",
            "counts_from": "2025-01-01",
            "request_id": str(uuid.uuid4()),
        },
    )
    assert response.status_code == 302
    invited = FederationClub.objects.get(federation=w.federation, club=club)
    assert invited.state == "invited" and "Withdraw the invitation" in text(client.get(url))
    club_answer(membership=invited, accept=True, version=invited.version, user=club_organiser)
    page = text(client.get(f"/f/{w.federation.slug}/"))
    assert "Karetní klub Brno" in page and f"/c/{club.slug}/" in page
    joined = FederationClub.objects.get(pk=invited.pk)
    end = f"/f/{w.federation.slug}/clubs/end/"
    # A form shown before the club joined is stale.
    client.post(end, {"membership": joined.pk, "version": invited.version, "request_id": str(uuid.uuid4())})
    assert FederationClub.objects.get(pk=joined.pk).state == "member"
    client.post(end, {"membership": joined.pk, "version": joined.version, "request_id": str(uuid.uuid4())})
    assert FederationClub.objects.get(pk=joined.pk).state == "ended"
    listing = text(client.get(url))
    assert "Past" in listing and "left" in listing


def test_the_register_adds_edits_merges_and_the_history_undoes_the_merge() -> None:
    w = world(clubs=1)
    client = client_for(w.director)
    url = f"/f/{w.federation.slug}/register/"
    for name in ("Jan Novák", "Jan  NOVAK", "Eva Svobodová"):
        client.post(url, {"name": name, "home_club": w.clubs[0].pk, "request_id": str(uuid.uuid4())})
    assert client.post(url, {"name": "", "request_id": str(uuid.uuid4())}).status_code == 200
    page = text(client.get(url))
    assert "CZ-00001" in page and "Likely duplicates" in page and "/f/" in page
    assert "Eva Svobodová" in text(client.get(url, {"q": "svobodova"}))
    found = text(client.get(url, {"q": "cz-2"}))
    assert "Jan  NOVAK" in found or "Jan NOVAK" in found
    assert "Eva Svobodová" not in found

    first, second = Person.objects.filter(federation=w.federation, number__in=[1, 2]).order_by("number")
    edit = f"/f/{w.federation.slug}/register/2/edit/"
    assert client.get(edit).status_code == 200
    client.post(
        edit,
        {"name": "Jan Novák", "home_club": "", "version": second.version, "request_id": str(uuid.uuid4())},
    )
    second.refresh_from_db()
    assert second.name == "Jan Novák" and second.home_club is None

    merge = f"/f/{w.federation.slug}/register/merge/"
    form = {"source": 2, "into": 1, "source_version": second.version, "into_version": first.version}
    client.post(merge, {**form, "request_id": str(uuid.uuid4())})
    assert Person.objects.get(pk=second.pk).merged_into_id == first.pk
    assert "Likely duplicates" not in text(client.get(url))

    history = f"/f/{w.federation.slug}/history/"
    listing = text(client.get(history))
    assert "Merged two register entries" in listing and "Undo" in listing
    merged = FederationChange.objects.get(federation=w.federation, action=Action.MERGED)
    client.post(f"{history}undo/", {"change": merged.pk, "request_id": str(uuid.uuid4())})
    assert Person.objects.get(pk=second.pk).merged_into_id is None
    # The merge's undo is itself undoable; the merge's own button is gone.
    assert FederationChange.objects.filter(undoes=merged).exists()
    again = client.post(
        f"{history}undo/", {"change": merged.pk, "request_id": str(uuid.uuid4())}, follow=True
    )
    assert "This change cannot be undone" in text(again)

    csv = client.get(f"{history}csv/")
    assert csv["Content-Type"].startswith("text/csv")
    body = csv.content.decode("utf-8-sig")
    assert body.splitlines()[0] == "time,action,description,user,club,details"
    assert "merged,merged two register entries,director" in body and "unmerged" in body
    assert body.count("person_added") == 3


def test_who_sees_a_members_only_federation_and_who_runs_it() -> None:
    w = world(clubs=1)
    assert Client().get(f"/f/{w.federation.slug}/").status_code == 200  # public: anyone
    assert Client().get(f"/f/{w.federation.slug}/register/").status_code == 200
    w.federation.visibility = Federation.Visibility.MEMBERS
    w.federation.save()
    slug = w.federation.slug
    member = UserFactory.create()
    add_member(w.clubs[0], member)
    stranger = UserFactory.create()
    assert Client().get(f"/f/{slug}/").status_code == 404
    assert client_for(stranger).get(f"/f/{slug}/").status_code == 404
    assert client_for(stranger).get(f"/f/{slug}/register/").status_code == 404
    assert w.federation.name not in text(client_for(stranger).get("/federations/"))
    as_member = client_for(member)
    assert as_member.get(f"/f/{slug}/").status_code == 200
    assert as_member.get(f"/f/{slug}/register/").status_code == 200
    assert w.federation.name in text(as_member.get("/federations/"))
    for tool in ("settings/", "clubs/", "history/", "history/csv/", "register/1/edit/"):
        assert as_member.get(f"/f/{slug}/{tool}").status_code == 403, tool
        assert client_for(stranger).get(f"/f/{slug}/{tool}").status_code == 404, tool
    assert as_member.post(f"/f/{slug}/register/", {"name": "X"}).status_code == 403
    assert Client().get(f"/f/{slug}/settings/").status_code in (302, 404)
    assert client_for(w.director).get(f"/f/{slug}/register/99999999999/edit/").status_code == 404
    # The member sees no organiser's tools on the federation's page.
    assert "Settings and organisers" not in text(as_member.get(f"/f/{slug}/"))


def test_pages_read_in_a_fixed_number_of_queries(django_assert_num_queries: Any) -> None:
    w = world(clubs=2)
    for n in range(20):
        person_add(federation=w.federation, name=f"Hráč {n}", home_club=w.clubs[n % 2])

    def reads() -> None:
        list(federation_list(user=w.director))
        federation_page(federation=w.federation, user=w.director)
        register_page(federation=w.federation)
        history_page(federation=w.federation)

    # The list: 1; the federation's page: clubs, register count, organiser; the register and
    # history: a count and a page each.
    with django_assert_num_queries(1 + 3 + 2 + 2):
        reads()
    Person.objects.bulk_create(
        Person(
            federation=w.federation, number=100 + n, name=f"Osoba {n}", key=f"osoba {n}", home_club=w.clubs[0]
        )
        for n in range(2000)
    )
    with django_assert_num_queries(1 + 3 + 2 + 2):
        reads()


def test_the_register_page_reads_as_many_queries_at_20_and_2000_entries() -> None:
    w = world(clubs=2)
    client = client_for(w.director)
    url = f"/f/{w.federation.slug}/register/"

    def count(path: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        return len(queries)

    for n in range(20):
        person_add(federation=w.federation, name=f"Hráč {n % 15}", home_club=w.clubs[n % 2])
    small = (count(url), count(f"{url}?q=hrac"), count(f"/f/{w.federation.slug}/history/"))
    Person.objects.bulk_create(
        Person(
            federation=w.federation,
            number=1000 + n,
            name=f"Osoba {n}",
            key=f"osoba {n % 1500}",
            home_club=w.clubs[0],
        )
        for n in range(2000)
    )
    for n in range(150):
        person_add(federation=w.federation, name=f"Další {n}", home_club=w.clubs[1])
    large = (count(url), count(f"{url}?q=hrac"), count(f"/f/{w.federation.slug}/history/"))
    assert small == large == PAGE_QUERIES, (small, large)
    # The register pages as the rating lists do, keeping the search.
    first = client.get(f"{url}?q=osoba").content.decode()
    assert 'href="?q=osoba&amp;page=2" rel="next"' in first
    assert 'rel="prev"' not in first
    last = client.get(f"{url}?q=osoba&page=20").content.decode()
    assert 'href="?q=osoba&amp;page=19" rel="prev"' in last and 'rel="next"' not in last
