"""A player claims his federation register entry from his phone, in Czech at 390 × 844: he has
his own player in two of the federation's member clubs, types his federation id and his name
as registered, each club's organisers confirm (one on his phone's page, one through the
services), and his person page then shows both clubs' players linked to his one entry, with
one federation rating moved by his games at both clubs."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from federations.models import FederationRating, PersonLink
from federations.services.links import claim_answer
from federations.services.register import person_add
from scoring.ratings import Rating, display_sigma
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.conftest import new_page
from tests.factories import UserFactory
from tests.federations.support import own_player, world
from tests.tournaments.fault_club import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "table-Secret-1"


@pytest.fixture
def phones(browser: Any) -> Iterator[tuple[Any, Any]]:
    player = new_page(browser, width=390, height=844, locale="cs-CZ")
    organiser = new_page(browser, width=390, height=844, locale="cs-CZ")
    yield player, organiser
    player.context.close()
    organiser.context.close()


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(base + "/cs/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit].primary").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def test_a_player_claims_his_entry_and_sees_both_clubs_linked(
    phones: tuple[Any, Any], live_server: Any
) -> None:
    base = live_server.url
    phone, organiser_phone = phones
    w = world()
    petr = UserFactory.create(username="petr")
    for n, club in enumerate(w.clubs):
        own_player(club, petr, f"Petr Svoboda ({club.name})")
        # A game at each club today (the clubs count from the day they joined).
        play(club, w.organisers[n], [f"Petr Svoboda ({club.name})", "Jana", "Olga"], "Jana")
    person_add(federation=w.federation, name="Petr Svoboda", user=w.director)
    fed = w.federation.slug

    # His claim: the federation id and his name as registered.
    log_in(phone, base, "petr")
    phone.goto(f"{base}/cs/f/{fed}/claim/")
    expect(phone.locator("h2")).to_have_text("Propojení se záznamem v registru")
    expect(phone.locator(".history li")).to_have_count(2)
    expect(phone.get_by_text("nepropojen")).to_have_count(2)
    # A wrong name gets the one refusal, at the field, his typing kept.
    phone.get_by_label("Vaše ID ve federaci").fill("CZ-00001")
    phone.get_by_label("Vaše jméno, jak je v registru").fill("Pavel Svoboda")
    phone.get_by_role("button", name="Požádat o propojení").click()
    expect(phone.locator(".field.invalid .error")).to_have_text(
        "Tomuto ID a jménu neodpovídá žádný záznam v registru. Ověřte si je u organizátorů federace."
    )
    expect(phone.get_by_label("Vaše ID ve federaci")).to_have_value("CZ-00001")
    phone.get_by_label("Vaše jméno, jak je v registru").fill("petr svoboda")
    phone.get_by_role("button", name="Požádat o propojení").click()
    expect(phone.get_by_text("CZ-00001: čeká na klub")).to_have_count(2)
    assert no_horizontal_scroll(phone)

    # The first club's organiser confirms on his club's federations page.
    log_in(organiser_phone, base, w.organisers[0].username)
    organiser_phone.goto(f"{base}/cs/c/{w.clubs[0].slug}/")
    organiser_phone.get_by_role("link", name="Federace").click()
    expect(organiser_phone.get_by_text("Žádosti čekající na klub")).to_be_visible()
    expect(organiser_phone.get_by_text("(účet petr)")).to_be_visible()
    organiser_phone.get_by_role("button", name="Potvrdit").click()
    expect(organiser_phone.get_by_text("Žádost potvrzena")).to_be_visible()
    assert no_horizontal_scroll(organiser_phone)
    # The second club's through the services.
    waiting = PersonLink.objects.get(club=w.clubs[1])
    claim_answer(link=waiting, confirm=True, version=waiting.version, user=w.organisers[1])

    # His person page: one entry, both clubs' players.
    phone.goto(f"{base}/cs/f/{fed}/claim/")
    expect(phone.get_by_text("propojen s CZ-00001")).to_have_count(2)
    phone.goto(f"{base}/cs/f/{fed}/register/1/")
    expect(phone.locator("h1")).to_have_text("Petr Svoboda")
    expect(phone.get_by_text("To jste vy.")).to_be_visible()
    for club in w.clubs:
        expect(phone.get_by_role("link", name=f"Petr Svoboda ({club.name})")).to_be_visible()
    # One rating, of his games at both clubs (the worker ran as each club confirmed).
    ratings = phone.locator("section[aria-labelledby=rating-title] li")
    expect(ratings).to_have_count(1)
    expect(ratings).to_contain_text("Rummikub")
    expect(ratings).to_contain_text("2 hodnocené partie")
    line = FederationRating.objects.get(person__federation=w.federation)
    expect(ratings.locator(".federation-rating")).to_have_text(
        f"{line.rating} ± {display_sigma(Rating(line.mu, line.sigma))}"
    )
    assert no_horizontal_scroll(phone)
