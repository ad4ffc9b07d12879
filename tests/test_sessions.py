"""A user's active sessions: each login is listed with its browser, address and last request;
he ends another one (or all the others) on the page or through the API, and the ended browser
can no longer act, on the pages or the API. His own session is not ended from the list."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.models import UserSession
from games.services.tokens import token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "table-Secret-1"


def log_in(user: User, agent: str, address: str) -> Client:
    client = Client(HTTP_USER_AGENT=agent, REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    return client


def acts(client: Client) -> bool:
    """The browser still acts as its user: its account page opens and a change saves."""
    page = client.get("/accounts/profile/")
    if page.status_code != 200:
        return False
    return client.post("/accounts/profile/", {"display_name": "Ann"}).status_code == 302


def test_the_page_lists_each_login_with_its_browser_and_address() -> None:
    ann = UserFactory.create(username="ann")
    laptop = log_in(ann, "Laptop Firefox", "192.0.2.10")
    log_in(ann, "Phone Safari", "192.0.2.11")
    log_in(UserFactory.create(username="bob"), "Bob's phone", "192.0.2.12")
    page = laptop.get("/accounts/sessions/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Laptop Firefox" in text and "Phone Safari" in text and "Bob's phone" not in text
    assert "192.0.2.11" in text and "(this browser)" in text
    assert text.count("End this session") == 1  # not for this browser
    assert 'href="/accounts/sessions/"' in laptop.get("/accounts/profile/").content.decode()


def test_an_ended_session_can_no_longer_act_and_the_others_go_on() -> None:
    ann = UserFactory.create(username="ann")
    laptop = log_in(ann, "Laptop", "192.0.2.10")
    phone = log_in(ann, "Phone", "192.0.2.11")
    tablet = log_in(ann, "Tablet", "192.0.2.12")
    assert acts(phone) and acts(tablet)
    row = UserSession.objects.get(user_agent="Phone")
    response = laptop.post("/accounts/sessions/", {"action": "end", "session": str(row.pk)})
    assert response.status_code == 302
    assert not acts(phone)
    assert phone.get("/api/v1/me/sessions/").status_code in (401, 403)
    assert acts(tablet) and acts(laptop)
    laptop.post("/accounts/sessions/", {"action": "end_others"})
    assert not acts(tablet) and acts(laptop)
    assert list(UserSession.objects.values_list("user_agent", flat=True)) == ["Laptop"]


def test_one_cannot_end_one_s_own_session_from_the_list_nor_another_user_s() -> None:
    ann, bob = UserFactory.create(username="ann"), UserFactory.create(username="bob")
    laptop = log_in(ann, "Laptop", "192.0.2.10")
    bobs = log_in(bob, "Bob's", "192.0.2.11")
    mine = UserSession.objects.get(user=ann)
    laptop.post("/accounts/sessions/", {"action": "end", "session": str(mine.pk)})
    laptop.post(
        "/accounts/sessions/", {"action": "end", "session": str(UserSession.objects.get(user=bob).pk)}
    )
    laptop.post("/accounts/sessions/", {"action": "end", "session": "²"})
    assert acts(laptop) and acts(bobs)


def test_the_api_lists_and_ends_sessions_and_a_token_may_end_them_all() -> None:
    ann = UserFactory.create(username="ann")
    laptop = log_in(ann, "Laptop", "192.0.2.10")
    phone = log_in(ann, "Phone", "192.0.2.11")
    rows = laptop.get("/api/v1/me/sessions/").json()
    assert sorted((r["user_agent"], r["current"]) for r in rows) == [("Laptop", True), ("Phone", False)]
    own = next(r for r in rows if r["current"])
    other = next(r for r in rows if not r["current"])
    refused = laptop.delete(f"/api/v1/me/sessions/{own['id']}/")
    assert refused.status_code == 400 and refused.json()["code"] == "session_current"
    assert laptop.delete(f"/api/v1/me/sessions/{other['id']}/").status_code == 204
    assert not acts(phone)
    gone = laptop.delete(f"/api/v1/me/sessions/{other['id']}/")  # ended already: nothing there
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"
    _row, secret = token_create(user=ann, name="script", scope="write")
    script = APIClient(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert script.post("/api/v1/me/sessions/end-others/").json() == {"ended": 1}
    assert not acts(laptop)
    _row, read_only = token_create(user=ann, name="reader", scope="read")
    assert (
        APIClient(HTTP_AUTHORIZATION=f"Bearer {read_only}")
        .post("/api/v1/me/sessions/end-others/")
        .status_code
        == 403
    )


def test_logging_out_removes_the_session_from_the_list() -> None:
    ann = UserFactory.create(username="ann")
    laptop = log_in(ann, "Laptop", "192.0.2.10")
    phone = log_in(ann, "Phone", "192.0.2.11")
    phone.post("/accounts/logout/")
    assert [r["user_agent"] for r in laptop.get("/api/v1/me/sessions/").json()] == ["Laptop"]


def test_last_seen_moves_on_with_the_requests_of_that_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    ann = UserFactory.create(username="ann")
    laptop = log_in(ann, "Laptop", "192.0.2.10")
    first = UserSession.objects.get().last_seen
    laptop.get("/accounts/profile/")
    assert UserSession.objects.get().last_seen == first  # within a few minutes: nothing written
    monkeypatch.setattr("games.web.sessions.SEEN_EVERY", -1)
    laptop.get("/accounts/profile/", REMOTE_ADDR="192.0.2.99")
    row = UserSession.objects.get()
    assert row.last_seen > first and row.address == "192.0.2.99"
