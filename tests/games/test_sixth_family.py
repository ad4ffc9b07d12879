"""A family of the test's own — a plain rummy with one deck — registered from here alone, then
played through the services and the pages: nothing else in the house names it. This is what
"a rule family is one module" promises (docs/design/scoring.md, "Adding a family")."""

from __future__ import annotations

import html as htmllib
import re
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.test import Client

from engine.rules import FAMILIES, OPTIONS, FamilyRules, Option, RuleSet
from games.models import Game, Result
from games.services.games import game_start
from games.services.hands import hand_record
from scoring.errors import ScoringError
from scoring.families import Example, Translate, TranslatePlural, make_info, register, unregister
from scoring.families.base import StandardFamily, name_of, target_reached
from scoring.reading import Count, check_pack, left_in_hands, player_field
from scoring.scored import HandKind, HandResult

pytestmark = pytest.mark.django_db

PLAIN_RULES = FamilyRules(
    key="plain",
    options=(Option("target", 100, "the game ends when a player reaches this; 0 = open", 0, 1000),),
    decks=1,
    jokers=0,
    ace_high=True,
    max_players=4,
)


@dataclass(frozen=True)
class PlainOutcome:
    players: tuple[str, ...]
    winner: str
    left: Mapping[str, Count]


class Plain(StandardFamily):
    """Who goes out scores what the others hold; the game goes to a target."""

    rules = PLAIN_RULES
    info = make_info(
        PLAIN_RULES,
        "Plain rummy",  # not marked: the test's strings stay out of the catalogues
        lower_is_better=False,
        roles=("winner",),
        emptied_role="winner",
        role_required=True,
        preferred=3,
        chart_line="target",
    )
    fields = ("players", "winner", "left")
    example = Example(
        ("Ann", "Bob", "Cid"),
        {"winner": "Ann", "left": {"Bob": "KH 5S", "Cid": 7}},
        "%(player)s goes out; Bob and Cid count their cards.",
        "Ann",
    )

    def parse(self, raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> PlainOutcome:
        winner = player_field(raw, "winner", players, required=True)
        assert winner is not None
        left = left_in_hands(raw, rules, players, emptied=winner, with_cards="winner_with_tiles")
        check_pack(rules, *(c.cards or () for c in left.values()))
        return PlainOutcome(players, winner, left)

    def score(self, outcome: object, rules: RuleSet) -> HandResult:
        assert isinstance(outcome, PlainOutcome)
        counts = {p: outcome.left[p].points for p in outcome.players}
        points = dict.fromkeys(outcome.players, 0)
        points[outcome.winner] = sum(counts.values())
        details = {"ending": "out", "winner": outcome.winner}
        return HandResult(rules.family, outcome.players, points, (outcome.winner,), counts, details)

    def kind(self, details: Mapping[str, object]) -> HandKind:
        return HandKind("out", name_of(details.get("winner")))

    def finish_reason(
        self, rules: RuleSet, *, number: int, totals: Mapping[str, int], remaining: int
    ) -> str | None:
        return target_reached(rules, totals)

    def how_scored(
        self, options: Mapping[str, object], say: Translate, ngettext: TranslatePlural
    ) -> list[str]:
        return [
            say("Who goes out scores the cards left in the others' hands; the game goes to %(target)s.")
            % {"target": options["target"]}
        ]


@pytest.fixture
def plain() -> Iterator[None]:
    register(Plain())
    try:
        yield
    finally:
        unregister("plain")


def text(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", htmllib.unescape(body))


def totals(client: Client, game: Game) -> list[str]:
    html = client.get(f"/g/{game.public_id}/").content.decode()
    return re.findall(r'<span class="total">([^<]+)</span>', html)


def test_a_family_registered_by_a_test_is_played_through_the_pages(plain: None) -> None:
    client = Client()
    assert "Plain rummy" in text(client.get("/games/new/"))
    form = client.get("/games/new/plain/").content.decode()
    assert 'name="opt_target"' in form and 'name="player_4"' in form and 'name="player_5"' not in form
    response = client.post(
        "/games/new/plain/",
        {"player_1": "Ann", "player_2": "Bob", "player_3": "Cid", "first_dealer": "0", "opt_target": "40"},
    )
    assert response.status_code == 302, text(client.get("/games/new/plain/"))
    game = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
    assert game.family == "plain" and game.options == {"target": 40}

    sheet = client.get(f"/g/{game.public_id}/").content.decode()
    assert 'name="winner"' in sheet and "Nobody" not in sheet  # the role is required
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "winner": "Ann", "cards_1": "KH 5S", "points_2": "7"},
    )
    assert response.status_code == 302
    assert totals(client, game) == ["22", "0", "0"]  # K 10 + 5 + 7, one deck's values

    # A card the one deck holds once, typed twice, is refused at the form; nothing is recorded.
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "winner": "Bob", "cards_0": "KH", "cards_2": "KH"},
    )
    assert response.status_code == 200 and game.hands.count() == 1

    rules_page = text(client.get(f"/g/{game.public_id}/rules/"))
    assert (
        "the game goes to 40" in rules_page and "Ann goes out; Bob and Cid count their cards." in rules_page
    )
    assert "the game goes to 100" in text(client.get("/rules/plain/"))

    response = client.post(
        f"/g/{game.public_id}/hands/",
        {
            "request_id": str(uuid.uuid4()),
            "winner": "Bob",
            "points_0": "30",
            "points_2": "12",
            "confirm_end": "1",
        },
    )
    assert response.status_code == 302
    assert totals(client, game) == ["22", "42", "0"]  # Bob past the target: the game is over
    winners = set(Result.objects.filter(game=game, winner=True).values_list("seat__name", flat=True))
    assert winners == {"Bob"}


def test_a_registered_family_is_played_through_the_services_and_goes_when_unregistered(plain: None) -> None:
    game = game_start(family="plain", options={}, players=["Ann", "Bob"], owner=AnonymousUser())
    hand_record(game=game, outcome={"winner": "Bob", "left": {"Ann": "AS 9D"}}, request_id=None, user=None)
    result = {
        r.seat.name: (r.total, r.winner) for r in Result.objects.filter(game=game).select_related("seat")
    }
    assert result == {"Ann": (0, False), "Bob": (10, False)}  # ace 1 + 9, not finished
    with pytest.raises(ScoringError) as refused:
        hand_record(game=game, outcome={"winner": "Ann", "knocker": "Bob"}, request_id=None, user=None)
    assert refused.value.code == "unknown_field"
    Game(family="plain", options={}).clean_fields(exclude=["owner", "club"])

    unregister("plain")
    assert "plain" not in FAMILIES and "plain" not in OPTIONS
    with pytest.raises(ValidationError):
        Game(family="plain", options={}).clean_fields(exclude=["owner", "club"])
    assert Client().get("/games/new/plain/").status_code == 404
    register(Plain())  # for the fixture to remove again
