"""The tournament's public pages: standings, "Where do I sit?", the projector screen and the
history, as a player or a club member sees them."""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.translation import override

from games.models import Club, Membership
from games.services.hands import hand_edit, hand_record
from scoring.standings import DEFAULT_TIEBREAKS
from tests.factories import ClubFactory, UserFactory, add_member
from tournaments.models import Round, Table, Tournament
from tournaments.selectors import view as selectors
from tournaments.services.entries import entries_add, entry_drop
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_confirm, round_start
from tournaments.services.tournament_settings import Settings, tournament_create
from tournaments.templatetags.tournament_tags import points

pytestmark = pytest.mark.django_db

EIGHT = ["Tomáš Novák", "Anna", "Bořek", "Cyril", "Dana", "Eva", "Filip", "Gita"]
PAGES = ["standings", "find_seat", "screen", "history"]


def settings(**changes: object) -> Settings:
    values: dict[str, object] = {
        "name": "Autumn cup",
        "date": date(2026, 11, 28),
        "family": "zoliky",
        "options": {},
        "rounds": 3,
        "round_hands": 0,
        "table_min": 3,
        "table_max": 4,
        "table_preferred": 4,
        "byes_allowed": True,
        "seating": "balanced",
        "seat_order": "random",
        "points": "table",
        "custom_points": "",
        "tiebreaks": list(DEFAULT_TIEBREAKS),
    }
    values.update(changes)
    return Settings(**values)  # type: ignore[arg-type]


def seat_names(played: Round) -> list[list[str]]:
    return [
        [seat.entry.player.name for seat in table.seats.select_related("entry__player").order_by("position")]
        for table in played.tables.order_by("number")
    ]


def play_round(tournament: Tournament, number: int, organiser: User, *, confirm: bool = True) -> Round:
    """Seat, start and play round ``number``: at table k the first seat closes and the others
    keep 10 + k, 20, 30 (so the second places differ by game score only)."""
    played = round_seat(tournament=tournament, number=number, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    for index, names in enumerate(seat_names(played)):
        table = played.tables.get(number=index + 1)
        assert table.game is not None
        left = dict(zip(names[1:], [10 + index, 20, 30], strict=False))
        hand_record(game=table.game, outcome={"closer": names[0], "left": left}, request_id=None, user=None)
    if confirm:
        played = round_confirm(played=played, round_version=played.version, user=organiser)
    return played


def make_tournament(
    names: list[str], *, visibility: str = Club.Visibility.PUBLIC, club: Club | None = None
) -> tuple[Tournament, User]:
    organiser = UserFactory.create()
    if club is None:
        club = ClubFactory.create(organiser=organiser)
        club.visibility = visibility
        club.save()
    else:
        add_member(club, organiser, Membership.Role.ORGANISER)
    tournament = tournament_create(club=club, settings=settings(), user=organiser)
    entries_add(tournament=tournament, names=names, checked_in=True, user=organiser)
    return tournament, organiser


@pytest.fixture
def cup() -> tuple[Tournament, User]:
    """Eight players, round 1 played and confirmed, round 2 seated."""
    tournament, organiser = make_tournament(EIGHT)
    play_round(tournament, 1, organiser)
    round_seat(tournament=tournament, number=2, user=organiser)
    return tournament, organiser


def url(name: str, tournament: Tournament, language: str = "") -> str:
    with override("en"):  # the English address (no prefix), whatever the last request's language
        path = reverse(f"tournaments:{name}", kwargs={"public_id": tournament.public_id})
    return f"/{language}{path}" if language else path


def text(response: object) -> str:
    return response.content.decode()  # type: ignore[attr-defined]


def test_points_are_formatted_briefly() -> None:
    assert points(Fraction(13, 2)) == "6.5"
    assert points(Fraction(7)) == "7"
    assert points(Fraction(13, 3)) == "4.33"
    assert points(Fraction(-5, 2)) == "−2.5"
    assert points(2.0) == "2"
    assert points(None) == "—"


def test_standings_lists_players_in_rank_order_with_points(
    client: Client, cup: tuple[Tournament, User]
) -> None:
    tournament, _ = cup
    rows = selectors.tournament_view(tournament=tournament).standings
    response = client.get(url("standings", tournament))
    assert response.status_code == 200
    page = text(response)
    positions = [page.index(f">{row.name}</a>") for row in rows]
    assert positions == sorted(positions)
    # The two table winners: 7 table points each, equal on every tie-break (they never met).
    winners = [row for row in rows if row.standing.points == 7]
    assert len(winners) == 2 and {row.rank for row in winners} == {1}
    assert re.search(r'class="rank">=1</td>', page)
    assert "Shared place" in page
    assert re.search(r'class="points">7</td>', page)
    # The second places have 5 each; game score per table (the default: 10 left against 11)
    # separates them, and the column shows it.
    second = [row for row in rows if row.standing.points == 5]
    assert second[1].standing.separated_by == "game_score_average"
    assert f"Below {second[0].name} on game score per table" in page
    assert "Game score per table" in page
    assert "Provisional" not in page


def test_standings_mark_a_player_who_dropped_out(client: Client, cup: tuple[Tournament, User]) -> None:
    tournament, organiser = cup
    entry = tournament.entries.get(player__name="Anna")
    entry_drop(entry=entry, dropped=True, version=entry.version, user=organiser)
    page = text(client.get(url("standings", tournament)))
    assert re.search(r'>Anna</a>\s*<span class="badge out">dropped out</span>', page)


def test_standings_are_provisional_while_a_round_is_played(client: Client) -> None:
    tournament, organiser = make_tournament(EIGHT)
    played = play_round(tournament, 1, organiser, confirm=False)
    # Finish table 1 by ending its game: it counts before the organiser confirms the round.
    from games.services.games import game_end

    table = played.tables.get(number=1)
    assert table.game is not None
    game_end(game=table.game, ended=True, user=organiser)
    page = text(client.get(url("standings", tournament)))
    assert "Provisional" in page


def test_members_only_club_hides_its_tournament(client: Client) -> None:
    tournament, organiser = make_tournament(EIGHT, visibility=Club.Visibility.MEMBERS)
    play_round(tournament, 1, organiser)
    for page in PAGES:
        assert client.get(url(page, tournament)).status_code == 404, page
    member = UserFactory.create()
    add_member(tournament.club, member)
    client.force_login(member)
    for page in PAGES:
        assert client.get(url(page, tournament)).status_code == 200, page


def test_unknown_tournament_is_404(client: Client) -> None:
    assert client.get("/t/nothing-here/standings/").status_code == 404


def test_find_seat_ignores_accents_and_case(client: Client, cup: tuple[Tournament, User]) -> None:
    tournament, _ = cup
    view = selectors.tournament_view(tournament=tournament)
    current = view.current
    assert current is not None and current.round.number == 2
    [(table, seat)] = [
        (t.number, i + 1) for t in current.tables for i, s in enumerate(t.seats) if s.name == "Tomáš Novák"
    ]
    response = client.get(url("find_seat", tournament), {"q": "tomas"})
    assert response.status_code == 200
    page = text(response)
    assert "Tomáš Novák" in page
    assert f"Table {table}, seat {seat} (round 2)" in page
    form = text(client.get(url("find_seat", tournament)))
    assert 'name="q"' in form and "autofocus" in form and 'autocomplete="off"' in form
    assert 'enterkeyhint="search"' in form


def test_find_seat_says_when_nobody_matches(client: Client, cup: tuple[Tournament, User]) -> None:
    tournament, _ = cup
    page = text(client.get(url("find_seat", tournament), {"q": "Zbyněk"}))
    assert "Nobody called" in page


def test_find_seat_before_seating(client: Client) -> None:
    tournament, _ = make_tournament(EIGHT)
    page = text(client.get(url("find_seat", tournament), {"q": "anna"}))
    assert "Not seated yet" in page


def test_find_seat_says_when_a_player_dropped_out(client: Client, cup: tuple[Tournament, User]) -> None:
    tournament, organiser = cup
    entry = tournament.entries.get(player__name="Anna")
    entry_drop(entry=entry, dropped=True, version=entry.version, user=organiser)
    page = text(client.get(url("find_seat", tournament), {"q": "anna"}))
    assert "Dropped out after round 1" in page
    assert "Not seated yet" not in page
    found = client.get(f"/api/v1/tournaments/{tournament.public_id}/seat/", {"q": "anna"}).json()
    assert [(r["name"], r["table"], r["dropped_after"]) for r in found["results"]] == [("Anna", None, 1)]
    tomas = client.get(f"/api/v1/tournaments/{tournament.public_id}/seat/", {"q": "tomas"}).json()
    assert tomas["results"][0]["dropped_after"] is None


def test_screen_refreshes_itself(client: Client) -> None:
    tournament, organiser = make_tournament(EIGHT)
    play_round(tournament, 1, organiser, confirm=False)
    response = client.get(url("screen", tournament))
    assert response.status_code == 200
    assert "Refresh" not in response  # no full reload: static/js/screen.js swaps the content
    page = text(response)
    assert "css/screen.css" in page and "js/screen.js" in page
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in page
    assert "Table 1" in page and "Table 2" in page
    assert "1 hand played" in page
    assert "<script>" not in page and "style=" not in page
    etag = response["ETag"]
    assert f'data-etag="{etag}"' in page.replace("&quot;", '"')
    # Nothing changed: 304, nothing drawn. A hand at a table: a new tag and the new page.
    assert client.get(url("screen", tournament), HTTP_IF_NONE_MATCH=etag).status_code == 304
    table = Table.objects.filter(round__tournament=tournament, round__number=1).order_by("number").first()
    assert table is not None and table.game is not None
    hand = table.game.hands.get()
    outcome = dict(hand.outcome)
    outcome["left"] = {name: count + 1 for name, count in outcome["left"].items()}
    hand_edit(hand=hand, outcome=outcome, version=hand.version, user=organiser)
    moved = client.get(url("screen", tournament), HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag


def test_history_shows_a_correction_after_confirmation(client: Client, cup: tuple[Tournament, User]) -> None:
    tournament, organiser = cup
    table = Round.objects.get(tournament=tournament, number=1).tables.get(number=1)
    assert table.game is not None
    hand = table.game.hands.get()
    outcome = dict(hand.outcome)
    outcome["left"] = {name: count + 1 for name, count in outcome["left"].items()}
    hand_edit(hand=hand, outcome=outcome, version=hand.version, user=organiser)
    response = client.get(url("history", tournament))
    assert response.status_code == 200
    page = text(response)
    assert "Table 1, round 1: hand changed after the round was confirmed" in page
    assert reverse("games:history", kwargs={"public_id": table.game.public_id}) in page
    assert "Confirmed a round&#x27;s results" in page or "Confirmed a round's results" in page
    # Strangers read "an organiser"; the organiser sees who did it.
    assert "an organiser" in page and organiser.username not in page
    client.force_login(organiser)
    assert organiser.username in text(client.get(url("history", tournament)))


@pytest.mark.parametrize("page", PAGES)
def test_pages_render_in_polish(client: Client, cup: tuple[Tournament, User], page: str) -> None:
    tournament, _ = cup
    response = client.get(url(page, tournament, "pl"), {"q": "tomas"} if page == "find_seat" else {})
    assert response.status_code == 200
    assert 'lang="pl"' in text(response)


def standings_queries(client: Client, players: int) -> int:
    names = [f"Player {i}" for i in range(players)]
    tournament, organiser = make_tournament(names)
    play_round(tournament, 1, organiser)
    play_round(tournament, 2, organiser, confirm=False)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url("standings", tournament)).status_code == 200
    return len(queries)


def test_standings_queries_do_not_grow_with_players(
    client: Client, django_assert_max_num_queries: object
) -> None:
    eight = standings_queries(client, 8)
    sixteen = standings_queries(client, 16)
    assert eight == sixteen
    tournament, organiser = make_tournament([f"Player {i}" for i in range(16)])
    play_round(tournament, 1, organiser)
    with django_assert_max_num_queries(eight):  # type: ignore[operator]
        assert client.get(url("standings", tournament)).status_code == 200


def test_nav_marks_the_current_page(client: Client, cup: tuple[Tournament, User]) -> None:
    tournament, _ = cup
    page = text(client.get(url("standings", tournament)))
    assert re.findall(r'<a href="([^"]+)" aria-current="page">', page) == [url("standings", tournament)]
    with override("en"):
        round_two = reverse("tournaments:round", kwargs={"public_id": tournament.public_id, "number": 2})
    page = text(client.get(round_two))
    assert re.findall(r'<a href="([^"]+)" aria-current="page">', page) == [round_two]


def test_standings_rows_escape_names_and_mark_who_dropped_out() -> None:
    from fractions import Fraction

    from tournaments.templatetags.tournament_tags import StandingItem, standings_rows
    from tournaments.tournament_data import Penalty

    class Row:
        name = "<b>Eve</b>"
        dropped = True
        player_id = 1
        standing = type("S", (), {"firsts": 0, "tables": 1, "byes": 1, "penalty": Fraction(2)})()
        penalties = (Penalty(1, 1, "<b>Eve</b>", "points", Fraction(2), 1, "<i>late</i>", False),)

    item = StandingItem(
        row=Row(),  # type: ignore[arg-type]
        rank="2",
        shared=False,
        first_shared=False,
        note="Below <i>Ann</i> on points",
        game_score=3,
        url="/c/x/players/1/",
        points="4",
        game_score_text="3",
        average_place="2",
        opponents_points="7",
    )
    html = str(standings_rows([item]))
    assert html.startswith('<tr class="dropped has-note">') and "&lt;b&gt;Eve&lt;/b&gt;" in html
    assert "Below &lt;i&gt;Ann&lt;/i&gt; on points" in html and '<td class="points">4</td>' in html
    assert "+1 bye" in html
    # A penalty marks the row; its reason, escaped, is one tap away in the note line.
    assert '<span class="badge missing penalised">penalty</span>' in html
    assert (
        "<summary>−2 points, round 1</summary><ul><li>−2 points, round 1: &lt;i&gt;late&lt;/i&gt;</li>"
        in html
    )
    # The note is a line of its own under the row, across the table.
    assert '<tr class="note"><td class="rank"></td><td colspan="7"><small class="tiebreak">Below' in html


def test_the_projector_styles_names_for_a_hall() -> None:
    """1920 × 1080 is wider than 75rem: there the type is 1.75rem (28 px names), less on a
    shorter screen in proportion (tests/browser/test_projector_browser.py measures the fit),
    and names are never link-coloured or underlined."""
    from django.contrib.staticfiles import finders

    path = finders.find("css/screen.css")
    assert path
    with open(path, encoding="utf-8") as handle:
        css = handle.read()
    assert ".screen a { color: inherit; text-decoration: none; }" in css
    wide = css[css.index("@media (min-width: 75rem)") :]
    assert ".screen { font-size: min(1.75rem, 2.6vh); }" in wide
