"""Home page in every language, health check, accounts, admin."""

from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

# One string per language, as the translators wrote it: checks the catalogue is really used.
HOME_TITLES = {
    "en": "Keep score at the card table",
    "cs": "Počítejte body přímo u karetního stolu",
    "sk": "Počítajte body priamo pri kartovom stole",
    "pl": "Liczcie punkty przy stole do gry",
    "nb": "Før poeng ved kortbordet",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", list(HOME_TITLES))
def test_home_page_renders_in_each_language(client: Client, language: str) -> None:
    url = "/" if language == "en" else f"/{language}/"
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert HOME_TITLES[language] in html


@pytest.mark.django_db
def test_language_switch_sets_language_and_redirects(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "pl", "next": "/"})
    assert response.status_code == 302
    assert response["Location"] == "/pl/"
    assert HOME_TITLES["pl"] in client.get(response["Location"]).content.decode()


@pytest.mark.django_db
def test_home_sends_csrf_token_to_htmx_and_serves_htmx_locally(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert "/static/vendor/htmx/" in html
    assert "://" not in html.split("<script", 1)[1].split(">", 1)[0]


@pytest.mark.django_db
def test_healthz_ok_when_database_answers(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "derived": {
            "oldest_pending_seconds": None,
            "failing_clubs": 0,
            "whole_within_seconds": 40.0,
            "stuck": [],
            "failing": [],
        },
    }


@pytest.mark.django_db
def test_healthz_503_when_database_is_broken(client: Client) -> None:
    with mock.patch("rummy_site.views.connection.cursor", side_effect=OperationalError("connection refused")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"


@pytest.mark.django_db
def test_log_in_change_password_log_out(client: Client) -> None:
    get_user_model().objects.create_user("ann", password="first-Secret-42")
    response = client.post(reverse("login"), {"username": "ann", "password": "first-Secret-42"})
    assert response.status_code == 302
    assert "Log out" in client.get("/").content.decode()

    response = client.post(
        reverse("password_change"),
        {
            "old_password": "first-Secret-42",
            "new_password1": "second-Secret-43",
            "new_password2": "second-Secret-43",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")

    client.post(reverse("logout"))
    assert "Log in" in client.get("/").content.decode()
    assert client.login(username="ann", password="second-Secret-43")


@pytest.mark.django_db
def test_wrong_password_is_reported_at_the_form(client: Client) -> None:
    get_user_model().objects.create_user("ann", password="first-Secret-42")
    response = client.post("/cs/accounts/login/", {"username": "ann", "password": "nope"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()


@pytest.mark.django_db
def test_admin_asks_for_login(client: Client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


@pytest.mark.django_db
def test_admin_lists_games_for_staff(client: Client) -> None:
    from tests.factories import GameFactory

    GameFactory.create(family="gin", players=["Ola", "Kari"])
    admin = get_user_model().objects.create_superuser("boss", password="boss-Secret-1")
    client.force_login(admin)
    assert client.get("/admin/games/game/").status_code == 200
    game_id = GameFactory.create().pk
    assert client.get(f"/admin/games/game/{game_id}/change/").status_code == 200
    assert client.get("/admin/games/change/").status_code == 200
