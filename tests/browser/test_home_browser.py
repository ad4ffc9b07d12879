"""The home page in real Chromium on a phone-sized screen."""

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_on_a_phone_switches_language_without_horizontal_scroll(phone: Any, live_server: Any) -> None:
    phone.goto(live_server.url + "/")
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.get_by_role("heading", level=1).inner_text() == "Keep score at the card table"
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    with phone.expect_navigation():
        phone.get_by_label("Language").select_option("cs")
    assert phone.locator("html").get_attribute("lang") == "cs"
    assert phone.url.endswith("/cs/")
    assert phone.get_by_role("heading", level=1).inner_text() == "Počítejte body přímo u karetního stolu"
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert phone.evaluate("typeof window.htmx") == "object"

    # Tap targets: every button, link in the header and form control is at least 44 px high.
    small = phone.evaluate(
        """[...document.querySelectorAll('button, select, .site-header a')]
            .filter(e => e.getBoundingClientRect().height < 44).map(e => e.outerHTML)"""
    )
    assert small == []
