"""The Content Security Policy in real Chromium: every page of the site, opened as the user it
is for, raises no CSP violation (neither a console message nor a ``securitypolicyviolation``
event) and no script error, and carries the policy header. Includes the pages htmx updates
(counting cards while typing, checking melds) and the edit link read from the URL's fragment."""

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.utils import timezone
from playwright.sync_api import expect

from games.families import family_table
from games.models import Club, Game, Membership, Player
from games.services.clubs import invite_create
from games.services.games import game_start
from games.services.hands import hand_record
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "table-Secret-1"
HANDS: list[dict[str, object]] = [
    {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}},
    {"closer": "Bob", "from_hand": True, "left": {"Ann": 12, "Cid": 7}},
]


class Watcher:
    """Collects what a page reports about the policy, across navigations."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", self.console)
        page.on("pageerror", lambda error: self.problems.append(f"{page.url}: script error: {error}"))
        page.expose_function("__reportViolation", lambda text: self.problems.append(f"{page.url}: {text}"))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', function (e) {"
            "  window.__reportViolation('securitypolicyviolation: ' + e.violatedDirective + ' blocked '"
            "    + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber);"
            "});"
        )

    def console(self, message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.problems.append(f"{self.page.url}: console {message.type}: {text}")

    def open(self, url: str, status: int = 200) -> Any:
        response = self.page.goto(url)
        assert response is not None, url
        assert response.status == status, (url, response.status)
        self.check_header(response)
        self.page.wait_for_load_state("load")
        return response

    @staticmethod
    def check_header(response: Any) -> None:
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, (response.url, policy)


@pytest.fixture
def pages(browser: Any) -> Iterator[Callable[[], Any]]:
    opened: list[Any] = []

    def make() -> Any:
        page = new_page(browser, width=390, height=844)
        opened.append(page)
        return page

    yield make
    for page in opened:
        page.context.close()


def log_in(watcher: Watcher, base: str, username: str) -> None:
    watcher.open(base + "/accounts/login/")
    watcher.page.locator("input[name=username]").fill(username)
    watcher.page.locator("input[name=password]").fill(PASSWORD)
    watcher.page.locator("form button[type=submit].primary").click()
    expect(watcher.page.locator("header form button.link")).to_be_visible()  # "Log out"


def test_no_page_violates_the_content_security_policy(pages: Any, live_server: Any) -> None:
    base = live_server.url
    olga = UserFactory.create(username="olga")
    mia = UserFactory.create(username="mia")
    club = ClubFactory.create(name="Tuesday club", organiser=olga)
    Membership.objects.create(club=club, user=mia, role=Membership.Role.MEMBER)
    invite = invite_create(club=club, user=olga, days=None)
    club_game = game_start(family="zoliky", options={}, players=["Ann", "Bob", "Cid"], owner=olga, club=club)
    own_game = game_start(family="zoliky", options={}, players=["Ann", "Bob", "Cid"], owner=olga)
    for game in (club_game, own_game):
        for outcome in HANDS:
            hand_record(game=game, outcome=outcome, request_id=None, user=olga)
    anonymous_game = game_start(family="gin", options={}, players=["Ola", "Kari"], owner=None)
    club_player = Player.objects.filter(club=club).first()
    own_player = Player.objects.filter(owner=olga, club=None).first()
    assert club_player is not None and own_player is not None

    # Anonymous: start page, login, signup, a new game, 404, the edit link from its fragment.
    guest = Watcher(pages())
    guest.open(base + "/")
    guest.open(base + "/accounts/login/")
    guest.open(base + f"/accounts/signup/?next=/clubs/join/{invite.token}/")
    guest.open(base + f"/clubs/join/{invite.token}/")
    guest.open(base + "/games/")
    guest.open(base + "/games/new/")
    for family in family_table():
        guest.open(base + f"/games/new/{family.key}/")
    guest.open(base + "/no-such-page/", status=404)
    guest.open(base + "/cs/")  # another language, the switcher's script
    guest.open(base + f"/g/{anonymous_game.public_id}/")  # read only
    with guest.page.expect_navigation(url=f"**/g/{anonymous_game.public_id}/"):
        guest.page.goto(base + f"/g/{anonymous_game.public_id}/edit/#{anonymous_game.edit_token}")
    expect(guest.page.locator("form.hand-form")).to_be_visible()
    assert "#" not in guest.page.url
    # Changing the language submits its form from the site's script.
    with guest.page.expect_navigation():
        guest.page.locator("#language-select").select_option("pl")
    assert "/pl/" in guest.page.url

    # The organiser: every page of the table and the club.
    organiser = Watcher(pages())
    log_in(organiser, base, "olga")
    game_pages = [
        f"/g/{own_game.public_id}/",
        f"/g/{own_game.public_id}/hands/1/",
        f"/g/{own_game.public_id}/history/",
        f"/g/{own_game.public_id}/settlement/",
        f"/g/{own_game.public_id}/check/",
        f"/g/{own_game.public_id}/rules/",
        f"/g/{own_game.public_id}/timer/",
        "/rules/carousel/",
        f"/g/{own_game.public_id}/arrange/?hand=AS+2S+3S+KH+5S",
        f"/g/{club_game.public_id}/",
    ]
    club_pages = [
        "/clubs/",
        f"/c/{club.slug}/",
        f"/c/{club.slug}/players/",
        f"/c/{club.slug}/players/{club_player.pk}/",
        f"/c/{club.slug}/members/",
        f"/c/{club.slug}/history/",
        f"/c/{club.slug}/settings/",
        f"/clubs/join/{invite.token}/",
        "/players/",
        f"/players/{own_player.pk}/",
        "/accounts/password_change/",
        "/accounts/profile/",
    ]
    for path in ["/", "/games/", "/games/new/", *game_pages, *club_pages]:
        organiser.open(base + path)
    for family in family_table():
        organiser.open(base + f"/games/new/{family.key}/?club={club.slug}")

    # htmx: the count while typing cards, and the meld check.
    page = organiser.page
    organiser.open(base + f"/g/{own_game.public_id}/")
    with page.expect_response(lambda r: "/count/" in r.url) as counted:
        page.locator("#id_cards_2").fill("KH 5S")
    Watcher.check_header(counted.value)
    expect(page.locator("#count-2")).not_to_be_empty()
    page.locator("[data-picker-for]").first.click()  # the card picker
    expect(page.locator("#picker")).to_be_visible()
    page.locator("#picker [data-picker-close]").click()  # the sheet covers the bottom of the page
    page.locator("#share-edit-url").click()  # the edit link's field (data-select-all)
    organiser.open(base + f"/g/{own_game.public_id}/check/")
    with page.expect_response(lambda r: "/check/" in r.url and "melds=" in r.url) as checked:
        page.locator("#melds").fill("7H 8H 9H")
        page.locator("form button[type=submit].primary").click()
    Watcher.check_header(checked.value)
    expect(page.locator("#check-result")).not_to_be_empty()

    # A member: an organiser's page is a 403.
    member = Watcher(pages())
    log_in(member, base, "mia")
    member.open(base + f"/c/{club.slug}/")
    member.open(base + f"/c/{club.slug}/settings/", status=403)

    # The admin, for an account made on purpose.
    UserFactory.create(username="root", is_staff=True, is_superuser=True)
    admin = Watcher(pages())
    admin.open(base + "/admin/login/")
    admin.page.locator("input[name=username]").fill("root")
    admin.page.locator("input[name=password]").fill(PASSWORD)
    admin.page.locator("input[type=submit]").click()
    expect(admin.page.locator("#site-name")).to_be_visible()
    for path in ["/admin/", "/admin/auth/user/", f"/admin/games/game/{own_game.pk}/change/", "/admin/axes/"]:
        admin.open(base + path)

    # The login lockout page, and the page for a form sent without its CSRF cookie.
    locked = Watcher(pages())
    AccessAttempt.objects.create(
        username="olga",
        ip_address="127.0.0.1",
        user_agent="any",
        failures_since_start=10,
        attempt_time=timezone.now() - timedelta(minutes=1),
        get_data="",
        post_data="",
        http_accept="",
        path_info="/accounts/login/",
    )
    locked.open(base + "/accounts/login/")
    locked.page.locator("input[name=username]").fill("olga")
    locked.page.locator("input[name=password]").fill(PASSWORD)
    with locked.page.expect_response(lambda r: r.request.method == "POST") as answer:
        locked.page.locator("form button[type=submit].primary").click()
    assert answer.value.status == 429
    Watcher.check_header(answer.value)
    expect(locked.page.locator("h1")).to_have_text("Too many failed logins")
    locked.page.context.clear_cookies()
    with locked.page.expect_response(lambda r: r.request.method == "POST") as refused:
        locked.page.locator(".language button[type=submit]").click()
    assert refused.value.status == 403
    Watcher.check_header(refused.value)
    expect(locked.page.locator("h1")).to_have_text("The form has expired")

    problems = guest.problems + organiser.problems + member.problems + locked.problems + admin.problems
    assert problems == []
    assert Game.objects.count() == 3 and Club.objects.count() == 1
