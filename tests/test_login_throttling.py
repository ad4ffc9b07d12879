"""Login throttling (django-axes): per account and per address, on the site's login and the
admin's, with a lockout page in the user's language and a documented way to unlock."""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.utils import translation
from django.utils.translation import gettext

from rummy_site.security import client_ip

ROOT = Path(__file__).resolve().parent.parent

LIMIT = settings.AXES_FAILURE_LIMIT
LOGIN = "/accounts/login/"


@pytest.fixture
def accounts(db: Any) -> None:
    model = get_user_model()
    model.objects.create_user(username="ann", password="ann-Secret-42")
    model.objects.create_user(username="bob", password="bob-Secret-42")


def attempt(username: str, password: str, *, address: str, path: str = LOGIN) -> Any:
    """A login from a fresh browser at ``address``."""
    return Client(REMOTE_ADDR=address).post(path, {"username": username, "password": password})


def logged_in(response: Any) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.wsgi_request.session


def test_the_figures_are_the_documented_ones() -> None:
    assert LIMIT == 10
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"], "ip_address"]
    assert settings.LOGIN_ACCOUNT_FAILURE_LIMIT == 5 * LIMIT
    assert settings.AUTHENTICATION_BACKENDS[0].endswith("AxesBackendAllowingTestClientLogin")


def test_wrong_passwords_lock_the_account_and_the_address_with_a_page_in_the_user_s_language(
    accounts: None,
) -> None:
    for n in range(1, LIMIT):
        response = attempt("ann", f"wrong-{n}", address="10.0.0.1")
        assert response.status_code == 200, n  # the form again, with its error
    response = Client(REMOTE_ADDR="10.0.0.1").post(
        "/cs/accounts/login/", {"username": "ann", "password": "wrong-last"}
    )
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    page = response.content.decode()
    assert '<html lang="cs">' in page
    assert "Moje partie" in page  # the site's header, in Czech
    with translation.override("cs"):
        assert gettext("Too many failed logins") in page
        assert "z jiné sítě" in page  # the way out: another network
    assert "site.css" in page  # a page of the site, not a bare text

    # Now even the right password is refused: from that address...
    response = attempt("ann", "ann-Secret-42", address="10.0.0.1")
    assert response.status_code == 429 and not logged_in(response)
    # ...and for another account from that address.
    assert attempt("bob", "bob-Secret-42", address="10.0.0.1").status_code == 429
    # Another account from another address is unaffected.
    assert logged_in(attempt("bob", "bob-Secret-42", address="10.0.0.2"))
    # Ann herself, from elsewhere (her phone off the Wi-Fi), still logs in: ten wrong passwords
    # typed for her at one place do not lock her out everywhere.
    assert logged_in(attempt("ann", "ann-Secret-42", address="10.0.0.9"))


def test_many_failures_from_many_addresses_lock_the_account_everywhere(accounts: None) -> None:
    for n in range(settings.LOGIN_ACCOUNT_FAILURE_LIMIT - 1):
        attempt("ann", f"wrong-{n}", address=f"10.0.{n // 8}.{n % 8 + 1}")  # a few from each
    assert logged_in(attempt("ann", "ann-Secret-42", address="10.0.9.9"))
    attempt("ann", "wrong-again", address="10.0.9.10")
    assert attempt("ann", "ann-Secret-42", address="10.0.9.11").status_code == 429
    assert logged_in(attempt("bob", "bob-Secret-42", address="10.0.9.11"))


def test_axes_reset_unlocks(accounts: None) -> None:
    for n in range(LIMIT):
        attempt("ann", f"wrong-{n}", address="10.0.0.1")
    assert attempt("ann", "ann-Secret-42", address="10.0.0.1").status_code == 429
    call_command("axes_reset")
    assert logged_in(attempt("ann", "ann-Secret-42", address="10.0.0.1"))


def test_axes_reset_username_unlocks_that_account(accounts: None) -> None:
    for n in range(settings.LOGIN_ACCOUNT_FAILURE_LIMIT):
        attempt("ann", f"wrong-{n}", address=f"10.0.1.{n}")  # one try from each of many addresses
    assert attempt("ann", "ann-Secret-42", address="10.0.0.50").status_code == 429
    call_command("axes_reset_username", "ann")
    assert logged_in(attempt("ann", "ann-Secret-42", address="10.0.0.50"))


def test_the_admin_login_is_throttled_too(accounts: None) -> None:
    get_user_model().objects.create_superuser(username="root", password="root-Secret-42")
    for n in range(LIMIT):
        attempt("root", f"wrong-{n}", address="10.0.0.7", path="/admin/login/")
    response = attempt("root", "root-Secret-42", address="10.0.0.7", path="/admin/login/")
    assert response.status_code == 429
    assert not logged_in(response)


def test_a_few_mistakes_then_the_right_password_log_in(accounts: None) -> None:
    for n in range(3):
        attempt("ann", f"wrong-{n}", address="10.0.0.1")
    assert logged_in(attempt("ann", "ann-Secret-42", address="10.0.0.1"))


def test_signup_still_logs_the_new_account_in(db: Any) -> None:
    client = Client(REMOTE_ADDR="10.0.0.3")
    response = client.post(
        "/accounts/signup/",
        {"username": "carl", "password1": "carl-Secret-42", "password2": "carl-Secret-42"},
    )
    assert response.status_code == 302
    assert client.get("/clubs/").status_code == 200  # a logged-in page


def test_forwarded_addresses_are_believed_only_from_the_proxy(settings: Any) -> None:
    factory = RequestFactory()
    settings.PROXY_COUNT = 1
    # Straight to the server, past the proxy: the header is the client's own claim.
    direct = factory.get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="6.6.6.6")
    assert client_ip(direct) == "203.0.113.9"
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_ip(factory.get("/", REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR="6.6.6.6")) == "6.6.6.6"
    assert client_ip(factory.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6")) == "127.0.0.1"


def test_a_bad_trusted_proxy_setting_stops_the_site() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)}
    env.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", TRUSTED_PROXIES="the proxy")
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0 and "TRUSTED_PROXIES must list addresses or networks" in done.stderr


def test_behind_a_proxy_the_address_is_the_one_the_proxy_saw(settings: Any) -> None:
    factory = RequestFactory()
    request = factory.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5")
    settings.PROXY_COUNT = 0
    assert client_ip(request) == "127.0.0.1"
    settings.PROXY_COUNT = 1
    assert client_ip(request) == "203.0.113.5"  # the left entry is whatever the client claimed
    settings.PROXY_COUNT = 2
    assert client_ip(request) == "6.6.6.6"
    assert client_ip(factory.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
