"""Two phones, one hand, in real Chromium at 390 × 844: both open the form for hand 1, one
saves, then the other; the second sees both versions and chooses (keep theirs, replace theirs
with mine, record mine as the next hand). Either phone first, with JavaScript and without."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game, Hand
from games.selectors.sheets import game_sheet
from tests.factories import GameFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Rummikub, Ann and Bob. Phone A: Ann went out, Bob 9 left; phone B: Bob went out, Ann 5 left.
HANDS = {"A": ("Ann", 1, "9"), "B": ("Bob", 0, "5")}
POINTS = {"A": {"Ann": 9, "Bob": -9}, "B": {"Ann": -5, "Bob": 5}}
WAIT = 20_000  # ms: the machine running the suite may be busy


@pytest.fixture
def phones(browser: Any, request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    js = request.param
    pages = {}
    for name in ("A", "B"):
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
            locale="en-GB",
            java_script_enabled=js,
        )
        context.set_default_timeout(WAIT)
        pages[name] = context.new_page()
    yield pages
    for page in pages.values():
        page.context.close()


def points(game: Game) -> list[dict[str, int]]:
    sheet = game_sheet(game=game)
    return [dict(zip(sheet.players, row.points, strict=True)) for row in sheet.rows]


def open_form(page: Any, base: str, game: Game) -> None:
    """Open the game with its edit link (write access in this browser) and type a hand."""
    page.goto(f"{base}/g/{game.public_id}/edit/{game.edit_token}/")
    expect(page.locator("#new-hand-title")).to_contain_text("Hand 1", timeout=WAIT)


def type_hand(page: Any, phone: str) -> None:
    winner, seat, count = HANDS[phone]
    page.locator(f"#new-hand-title ~ form input[name=winner][value='{winner}']").check()
    page.locator(f"#new-hand-title ~ form input[name=points_{seat}]").fill(count)


def save(page: Any) -> None:
    page.locator("#new-hand-title ~ form button.save").click()


def no_horizontal_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("phones", [True, False], ids=["js", "no-js"], indirect=True)
@pytest.mark.parametrize("first", ["A", "B"])
@pytest.mark.parametrize("choice", ["keep", "replace", "next"])
def test_the_second_save_shows_both_versions_and_the_choice_is_carried_out(
    phones: dict[str, Any], live_server: Any, first: str, choice: str
) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    second = "B" if first == "A" else "A"
    for name, page in phones.items():
        open_form(page, live_server.url, game)
        type_hand(page, name)
    save(phones[first])
    expect(phones[first].locator("#new-hand-title")).to_contain_text("Hand 2", timeout=WAIT)
    assert points(game) == [POINTS[first]]

    page = phones[second]
    problems: list[str] = []  # the conflict screen breaks no CSP rule and no script
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    save(page)
    conflict = page.locator("section.conflict")
    expect(conflict.locator("h2")).to_have_text("Hand 1 was just recorded on another phone.", timeout=WAIT)
    # Both versions side by side: theirs as the sheet shows it, mine as typed, scored in that place.
    theirs = [t.strip() for t in conflict.locator("td.theirs").all_inner_texts()]
    mine = [t.strip() for t in conflict.locator("td.mine").all_inner_texts()]
    signed = {n: f"+{p}" if p > 0 else f"−{-p}" for n, p in POINTS[first].items()}
    assert theirs[0] == HANDS[first][0] and theirs[1].startswith(signed["Ann"])
    assert theirs[2].startswith(signed["Bob"])
    signed = {n: f"+{p}" if p > 0 else f"−{-p}" for n, p in POINTS[second].items()}
    assert mine[0] == HANDS[second][0] and mine[1].startswith(signed["Ann"])
    assert mine[2].startswith(signed["Bob"])
    assert no_horizontal_scroll(page)
    assert points(game) == [POINTS[first]]  # nothing of mine saved yet

    if choice == "keep":
        conflict.get_by_role("button", name="Keep hand 1 as it is (discard mine)").click()
        expect(page).to_have_url(re.compile(rf"/g/{game.public_id}/\??$"), timeout=WAIT)
        expected = [POINTS[first]]
    elif choice == "replace":
        conflict.get_by_role("button", name="Replace hand 1 with mine").click()
        expect(page.locator(".messages")).to_contain_text("Hand 1 now holds your values", timeout=WAIT)
        expected = [POINTS[second]]
    else:
        conflict.get_by_role("button", name="Record mine as hand 2").click()
        expect(page.locator(".messages")).to_contain_text("Your hand was recorded as hand 2", timeout=WAIT)
        expected = [POINTS[first], POINTS[second]]
    expect(page.locator("#new-hand-title")).to_contain_text(f"Hand {len(expected) + 1}", timeout=WAIT)
    assert points(game) == expected
    assert Hand.objects.filter(game=game).count() == len(expected)
    assert problems == []


@pytest.mark.parametrize("phones", [True], ids=["js"], indirect=True)
def test_replace_refused_when_theirs_changed_again(phones: dict[str, Any], live_server: Any) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    for name, page in phones.items():
        open_form(page, live_server.url, game)
        type_hand(page, name)
    save(phones["A"])
    expect(phones["A"].locator("#new-hand-title")).to_contain_text("Hand 2", timeout=WAIT)
    save(phones["B"])
    conflict = phones["B"].locator("section.conflict")
    expect(conflict).to_be_visible(timeout=WAIT)
    # Meanwhile phone A corrects its hand 1 (Bob 12 left).
    a = phones["A"]
    a.goto(f"{live_server.url}/g/{game.public_id}/hands/1/")
    a.locator("input[name=points_1]").fill("12")
    a.locator("button.save").click()
    expect(a.locator("#saved-line")).to_contain_text("corrected", timeout=WAIT)
    conflict.get_by_role("button", name="Replace hand 1 with mine").click()
    b = phones["B"]
    expect(b.locator("section.conflict [role=alert]")).to_contain_text(
        "changed again on another phone", timeout=WAIT
    )
    expect(b.locator("section.conflict td.theirs").nth(2)).to_contain_text("12 points", timeout=WAIT)
    assert points(game) == [{"Ann": 12, "Bob": -12}]
    b.get_by_role("button", name="Replace hand 1 with mine").click()
    expect(b.locator(".messages")).to_contain_text("Hand 1 now holds your values", timeout=WAIT)
    assert points(game) == [POINTS["B"]]
