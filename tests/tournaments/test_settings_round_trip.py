"""A settings page saved unchanged changes nothing: every setting the API accepts can be seen and
kept on the page (a page with fewer menus than the API allows tie-breaks dropped the last one)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from engine.rules import FAMILIES, OPTIONS, Option
from scoring.families import family_info
from scoring.league import LEAGUE_TIEBREAKS
from scoring.standings import TIEBREAKS
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


class _Form(HTMLParser):
    """The fields a browser would send back from the page's settings form, as they are shown."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action, self.inside, self.select, self.textarea = action, False, "", ""
        self.data: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("method", "").lower() == "post" and a.get("action", self.action) in (
                "",
                self.action,
            )
        if not self.inside:
            return
        if tag == "input" and a.get("name"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            if a.get("type") in ("submit", "button"):
                return
            self.data.append((a["name"], a.get("value", "on" if a.get("type") == "checkbox" else "")))
        elif tag == "select":
            self.select = a.get("name", "")
        elif tag == "option" and self.select and "selected" in a:
            self.data.append((self.select, a.get("value", "")))
        elif tag == "textarea":
            self.textarea = a.get("name", "")
            self.data.append((self.textarea, ""))

    def handle_data(self, data: str) -> None:
        if self.textarea:
            name, value = self.data[-1]
            self.data[-1] = (name, value + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = ""
        elif tag == "textarea":
            self.textarea = ""


def save_unchanged(client: Client, path: str) -> Any:
    page = client.get(path)
    assert page.status_code == 200
    form = _Form(path)
    form.feed(page.content.decode())
    data: dict[str, list[str]] = {}
    for name, value in form.data:
        data.setdefault(name, []).append(value.lstrip("\n"))
    return client.post(path, data)


def settings_of(client: Client, path: str) -> dict[str, Any]:
    """The object as the API gives it, less what every save moves (its version, and when its
    standings were last derived)."""
    body = client.get(path).json()
    return {k: v for k, v in body.items() if k not in ("version", "etag", "computed_at")}


def other_value(option: Option) -> object:
    """A value of the house rule that is not its default (the largest allowed where it counts)."""
    if isinstance(option.default, bool):
        return not option.default
    if option.choices:
        return next(c for c in reversed(option.choices) if c != option.default)
    if option.maximum is not None and option.maximum != option.default:
        return option.maximum
    return option.minimum


def organiser_client() -> tuple[Client, str]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    client = Client()
    client.force_login(organiser)
    return client, club.slug


@pytest.mark.parametrize("family", FAMILIES)
def test_the_tournament_settings_page_keeps_every_setting_the_api_accepts(family: str) -> None:
    client, slug = organiser_client()
    options = {name: other_value(option) for name, option in OPTIONS[family].items() if not option.derived}
    made = client.post(
        f"/api/v1/clubs/{slug}/tournaments/",
        {
            "name": "Winter open",
            "date": "2026-12-12",
            "family": family,
            "options": options,
            "rounds": 7,
            "round_hands": 4,
            "round_minutes": 55,
            "byes_allowed": False,
            "seating": "swiss",
            "seat_order": "rotating",
            "points": "custom",
            "custom_points": "; ".join(
                f"{size}: " + " ".join(str(size - p) for p in range(size))
                for size in range(family_info(family).min_players, family_info(family).max_players + 1)
            ),
            "tiebreaks": ["points", *reversed([k for k in TIEBREAKS if k != "points"])],
        },
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    public_id = made.json()["public_id"]
    before = settings_of(client, f"/api/v1/tournaments/{public_id}/")
    assert before["options"].items() >= options.items()
    assert before["round_minutes"] == 55
    saved = save_unchanged(client, f"/t/{public_id}/settings/")
    assert saved.status_code == 302, saved.content.decode()[-3000:]
    assert settings_of(client, f"/api/v1/tournaments/{public_id}/") == before


def test_the_season_settings_page_keeps_every_setting_the_api_accepts() -> None:
    client, slug = organiser_client()
    made = client.post(
        f"/api/v1/clubs/{slug}/seasons/",
        {
            "name": "Spring league",
            "starts": "2027-03-01",
            "ends": "2027-06-30",
            "families": list(FAMILIES),
            "counts": "tournaments",
            "game_points": "wdl",
            "tournament_points": "custom",
            "custom_points": "12 9 7 5 4 3 2 1",
            "best_events": 1000,
            "drop_worst": 1000,
            "min_games": 10000,
            "qualify": 1000,
            "tiebreaks": ["points", "games", "head_to_head", "wins", "average_place"],
        },
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    public_id = made.json()["public_id"]
    before = settings_of(client, f"/api/v1/seasons/{public_id}/")
    assert before["tiebreaks"] == ["points", *[k for k in before["tiebreaks"] if k != "points"]]
    assert len(before["tiebreaks"]) == len(LEAGUE_TIEBREAKS)
    assert before["qualify"] == 1000
    saved = save_unchanged(client, f"/s/{public_id}/settings/")
    assert saved.status_code == 302, saved.content.decode()[-3000:]
    assert settings_of(client, f"/api/v1/seasons/{public_id}/") == before
