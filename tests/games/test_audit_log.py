"""A club's audit log: every event the organisers asked for is recorded once, with who and
from where, by the pages, the API and the services; organisers read it (on a phone too) and
export it as CSV that no spreadsheet runs; members and outsiders are refused."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.models import AuditEntry, Club, Membership
from games.services.games import game_start
from games.services.tokens import token_create
from tests.factories import ClubFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db
A = AuditEntry.Action
Role = Membership.Role


def logged_in(user: User) -> Client:
    client = Client(REMOTE_ADDR="192.0.2.7")
    client.force_login(user)
    return client


@pytest.fixture
def world() -> dict[str, Any]:
    olga = UserFactory.create(username="olga")
    club = ClubFactory.create(name="Tuesday club", organiser=olga)
    keeper = UserFactory.create(username="kate")
    add_member(club, keeper, Role.SCOREKEEPER)
    member = UserFactory.create(username="mike")
    add_member(club, member)
    return {"club": club, "olga": olga, "keeper": keeper, "member": member}


def actions(club: Club, *, logins: bool = False) -> list[tuple[str, str, str]]:
    """The club's entries in order (the logins of the tests' organisers left out unless asked)."""
    entries = AuditEntry.objects.filter(club=club).order_by("pk")
    if not logins:
        entries = entries.exclude(action=A.LOGIN)
    return [(e.action, e.actor_name, e.target) for e in entries]


def test_the_pages_record_invites_roles_members_settings_and_exports_with_the_address(
    world: dict[str, Any],
) -> None:
    club, olga, mike = world["club"], world["olga"], world["member"]
    client = logged_in(olga)
    client.post(f"/c/{club.slug}/invites/", {"days": "7"})
    invite = club.invites.get()
    client.post(f"/c/{club.slug}/invites/{invite.pk}/revoke/")
    mike_membership = Membership.objects.get(club=club, user=mike)
    client.post(f"/c/{club.slug}/members/{mike_membership.pk}/role/", {"role": "scorekeeper", "version": "1"})
    client.post(f"/c/{club.slug}/members/{mike_membership.pk}/remove/")
    client.post(
        f"/c/{club.slug}/settings/",
        {"name": "Wednesday club", "slug": club.slug, "visibility": "members", "version": club.version},
    )
    client.get(f"/api/v1/clubs/{club.slug}/export/")
    client.get(f"/api/v1/clubs/{club.slug}/export/?format=csv")
    assert actions(club) == [
        (A.INVITE_CREATED, "olga", f"#{invite.pk}"),
        (A.INVITE_REVOKED, "olga", f"#{invite.pk}"),
        (A.ROLE_CHANGED, "olga", "mike"),
        (A.MEMBER_REMOVED, "olga", "mike"),
        (A.VISIBILITY_CHANGED, "olga", ""),
        (A.SETTINGS_CHANGED, "olga", ""),
        (A.EXPORTED, "olga", ""),
        (A.EXPORTED, "olga", ""),
    ]
    entries = list(AuditEntry.objects.filter(club=club).exclude(action=A.LOGIN).order_by("pk"))
    assert {e.address for e in entries} == {"192.0.2.7"}
    assert entries[2].data == {"before": "member", "after": "scorekeeper", "undo": False}
    assert entries[4].data == {"before": "public", "after": "members"}
    assert entries[5].data == {"name": {"before": "Tuesday club", "after": "Wednesday club"}}
    assert [e.data["format"] for e in entries[6:]] == ["json", "csv"]


def test_joining_leaving_tokens_and_an_unchanged_save_are_recorded_as_they_are(world: dict[str, Any]) -> None:
    club, olga, kate, mike = world["club"], world["olga"], world["keeper"], world["member"]
    AuditEntry.objects.all().delete()
    invite_page = logged_in(olga)
    invite_page.post(f"/c/{club.slug}/invites/", {"days": ""})
    newcomer = UserFactory.create(username="nora")
    logged_in(newcomer).post(f"/clubs/join/{club.invites.get().token}/")
    logged_in(mike).post(f"/c/{club.slug}/members/{Membership.objects.get(user=mike).pk}/remove/")
    # A token of a scorekeeper is the club's concern; a mere member's (nora) is not.
    row, _secret = token_create(user=kate, name="scoreboard", scope="write")
    token_create(user=newcomer, name="mine", scope="read")
    logged_in(kate).post("/accounts/profile/", {"action": "token_revoke", "token": str(row.pk)})
    # Saving the settings unchanged records nothing.
    invite_page.post(
        f"/c/{club.slug}/settings/",
        {"name": club.name, "slug": club.slug, "visibility": club.visibility, "version": club.version},
    )
    assert actions(club)[1:] == [
        (A.MEMBER_JOINED, "nora", "nora"),
        (A.MEMBER_LEFT, "mike", "mike"),
        (A.TOKEN_CREATED, "kate", "scoreboard"),
        (A.TOKEN_REVOKED, "kate", "scoreboard"),
    ]


def test_game_transfers_deletions_and_their_undo_are_recorded(world: dict[str, Any]) -> None:
    club, olga, kate = world["club"], world["olga"], world["keeper"]
    AuditEntry.objects.all().delete()
    game = game_start(family="rummikub", options={}, players=["Ann", "Bob"], owner=olga, club=club)
    client = logged_in(olga)
    client.post(f"/g/{game.public_id}/transfer/", {"to": str(kate.pk)})
    client.post(f"/g/{game.public_id}/delete/", {"confirm": "1"})
    removal = game.changes.get(action="removed")
    client.post(f"/g/{game.public_id}/history/{removal.pk}/undo/")
    assert actions(club) == [
        (A.GAME_TRANSFERRED, "olga", game.public_id),
        (A.GAME_DELETED, "olga", game.public_id),
        (A.GAME_RESTORED, "olga", game.public_id),
    ]
    transfer = AuditEntry.objects.get(action=A.GAME_TRANSFERRED)
    assert transfer.data == {"before": "olga", "after": "kate", "undo": False}
    assert AuditEntry.objects.get(action=A.GAME_RESTORED).data == {"undo": True}


def test_an_organiser_s_login_is_recorded_in_his_clubs_and_a_member_s_is_not(world: dict[str, Any]) -> None:
    club, olga, mike = world["club"], world["olga"], world["member"]
    other = ClubFactory.create(name="Other club", organiser=UserFactory.create(username="otto"))
    add_member(other, olga)  # a member there: his login is not that club's concern
    AuditEntry.objects.all().delete()
    for user in (olga, mike):
        Client(REMOTE_ADDR="198.51.100.4", HTTP_USER_AGENT="Phone/1.0").post(
            "/accounts/login/", {"username": user.username, "password": "table-Secret-1"}
        )
    assert actions(club, logins=True) == [(A.LOGIN, "olga", "")]
    login = AuditEntry.objects.get(club=club)
    assert (login.address, login.data) == ("198.51.100.4", {"user_agent": "Phone/1.0"})
    assert not AuditEntry.objects.filter(club=other).exists()


def test_organisers_read_the_log_on_a_page_with_older_entries_a_page_further(world: dict[str, Any]) -> None:
    club, olga = world["club"], world["olga"]
    for n in range(55):
        AuditEntry.objects.create(club=club, action=A.EXPORTED, actor_name="olga", target=f"t{n}")
    page = logged_in(olga).get(f"/c/{club.slug}/audit/")
    text = page.content.decode()
    assert page.status_code == 200 and page["Cache-Control"].startswith("max-age=0")
    assert "t54" in text and "t5<" not in text and "Older entries" in text
    assert 'name="viewport"' in text  # the site's phone layout
    older = page.context["older"]
    second = logged_in(olga).get(f"/c/{club.slug}/audit/?before={older}").content.decode()
    assert "<strong>t4</strong>" in second and "t54" not in second
    history = logged_in(olga).get(f"/c/{club.slug}/history/").content.decode()
    assert f'href="/c/{club.slug}/audit/"' in history


def test_the_page_reads_in_one_query_whatever_the_number_of_entries(
    world: dict[str, Any], django_assert_num_queries: Any
) -> None:
    from games.selectors.audit import audit_page

    club = world["club"]
    for _ in range(10):
        AuditEntry.objects.create(club=club, action=A.LOGIN, actor=world["olga"], actor_name="olga")
    with django_assert_num_queries(1):
        rows, older = audit_page(club=club, size=5)
        assert len(rows) == 5 and older == rows[-1].pk
        assert [r.actor_name for r in rows] == ["olga"] * 5


def test_members_and_outsiders_are_refused_the_page_the_csv_and_the_api(world: dict[str, Any]) -> None:
    club, kate = world["club"], world["keeper"]
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    outsider = UserFactory.create(username="ossi")
    for path in (f"/c/{club.slug}/audit/", f"/c/{club.slug}/audit.csv"):
        assert logged_in(kate).get(path).status_code == 403
        assert logged_in(outsider).get(path).status_code == 404
        assert Client().get(path).status_code == 302  # to the login
    for path in (f"/api/v1/clubs/{club.slug}/audit/", f"/api/v1/clubs/{club.slug}/audit/export/"):
        member_api, outsider_api = APIClient(), APIClient()
        member_api.force_authenticate(kate)
        outsider_api.force_authenticate(outsider)
        assert member_api.get(path).status_code == 403
        assert outsider_api.get(path).status_code == 404
        assert APIClient().get(path).status_code in (401, 403)
    assert not AuditEntry.objects.filter(action=A.AUDIT_EXPORTED).exists()


def test_the_csv_neutralises_formulas_and_records_its_own_export(world: dict[str, Any]) -> None:
    club, olga = world["club"], world["olga"]
    evil = UserFactory.create(username="=HYPERLINK(1)")
    add_member(club, evil, Role.SCOREKEEPER)
    token_create(user=evil, name="@SUM(1+1)", scope="read")
    for response in (
        logged_in(olga).get(f"/c/{club.slug}/audit.csv"),
        logged_in(olga).get(f"/api/v1/clubs/{club.slug}/audit/export/"),
    ):
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        made = next(r for r in rows if r["action"] == A.TOKEN_CREATED)
        assert (made["actor"], made["target"]) == ("'=HYPERLINK(1)", "'@SUM(1+1)")
        assert rows[0]["action"] == A.AUDIT_EXPORTED and rows[0]["actor"] == "olga"
    assert AuditEntry.objects.filter(action=A.AUDIT_EXPORTED).count() == 2


def test_the_api_pages_through_the_log_newest_first(world: dict[str, Any]) -> None:
    club, olga = world["club"], world["olga"]
    for n in range(3):
        AuditEntry.objects.create(club=club, action=A.EXPORTED, actor=olga, actor_name="olga", target=f"t{n}")
    api = APIClient()
    api.force_authenticate(olga)
    first = api.get(f"/api/v1/clubs/{club.slug}/audit/?page_size=2").json()
    assert [r["target"] for r in first["results"]] == ["t2", "t1"]
    assert first["results"][0]["description"] == "exported the club's data"
    rest = api.get(first["next"]).json()
    assert rest["results"][0]["target"] == "t0"


def test_an_entry_keeps_its_actor_s_name_after_his_account_is_deleted(world: dict[str, Any]) -> None:
    club, kate = world["club"], world["keeper"]
    token_create(user=kate, name="phone", scope="read")
    kate.delete()
    entry = AuditEntry.objects.get(club=club, action=A.TOKEN_CREATED)
    assert (entry.actor, entry.actor_name) == (None, "kate")
