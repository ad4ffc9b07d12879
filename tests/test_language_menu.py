"""The language menu names each language as its speakers write it, on every page's frame."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

OWN_NAMES = ["English", "Čeština", "Slovenčina", "Polski", "Norsk bokmål"]


@pytest.mark.parametrize("prefix", ["", "/cs", "/pl"])
def test_the_language_menu_lists_each_language_by_its_own_name(client: Client, prefix: str) -> None:
    page = client.get(f"{prefix}/").content.decode()
    menu = re.search(r'<select id="language-select".*?</select>', page, re.S)
    assert menu is not None
    assert re.findall(r'<option value="\w+" lang="\w+"(?: selected)?>([^<]+)</option>', menu[0]) == OWN_NAMES
    assert "Česky" not in menu[0]


def test_the_csrf_failure_page_drawn_without_a_request_lists_them_too() -> None:
    client = Client(enforce_csrf_checks=True)
    refused = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert refused.status_code == 403
    assert "Čeština" in refused.content.decode()
