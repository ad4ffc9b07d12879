"""The charts of a game: the evening's running totals under the score sheet,
with Žolíky's elimination limit or the gin/Carousel target as a line, and the settlement's
crowns as bars. The SVG is read back: its points, mapped through its own axis numbers, must be
the running totals the sheet shows."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from games.selectors.sheets import game_sheet
from games.services.hands import hand_record
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

ZOLIKY_HANDS: list[dict[str, Any]] = [
    {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": 40}},
    {"closer": "Bob", "from_hand": False, "left": {"Ann": 4, "Cid": 35}},
    {"closer": "Ann", "from_hand": False, "left": {"Bob": 12, "Cid": 50}},  # Cid 125: out at 100
    {"closer": "Bob", "from_hand": False, "left": {"Ann": 30}},
]


def play(game: Game, outcomes: list[dict[str, Any]]) -> None:
    for outcome in outcomes:
        hand_record(game=game, outcome=outcome, request_id=uuid.uuid4(), user=None)
        game.refresh_from_db()


def evening_svg(game: Game) -> str:
    html = Client().get(f"/g/{game.public_id}/").content.decode()
    found = re.search(r'<svg class="chart chart-running".*?</svg>', html, re.S)
    assert found is not None, "no chart on the page"
    return found[0]


def y_to_value(svg: str) -> Any:
    """The chart's own y axis: its numbered ticks (value, y), as a function from y to value."""
    ticks = [
        (int(value), float(y) - 4)  # the label sits 4 units below its grid line
        for y, value in re.findall(
            r'<text x="[\d.]+" y="([\d.]+)" class="chart-label chart-y"[^>]*data-value="(-?\d+)"', svg
        )
    ]
    assert len(ticks) >= 3
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    return lambda y: v0 + (y - y0) * (v1 - v0) / (y1 - y0)


def lines(svg: str) -> dict[str, list[int]]:
    """Each player's line, read back as values through the y axis."""
    value = y_to_value(svg)
    result = {}
    for name, points in re.findall(
        r'<g class="chart-series series-\d" data-name="([^"]+)"[^>]*><polyline points="([^"]+)"', svg
    ):
        result[name] = [round(value(float(point.split(",")[1]))) for point in points.split()]
    return result


def x_positions(svg: str, name: str) -> list[float]:
    found = re.search(rf'data-name="{name}"[^>]*><polyline points="([^"]+)"', svg)
    assert found is not None
    return [float(point.split(",")[0]) for point in found[1].split()]


def test_the_lines_are_the_running_totals_and_a_player_out_stops_where_he_dropped_out() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"], options={"elimination": 100})
    play(game, ZOLIKY_HANDS)
    sheet = game_sheet(game=game)
    svg = evening_svg(game)
    drawn = lines(svg)
    assert list(drawn) == ["Ann", "Bob", "Cid"]
    assert drawn["Ann"] == [0, *(row.totals[0] for row in sheet.rows)]
    assert drawn["Bob"] == [0, *(row.totals[1] for row in sheet.rows)]
    assert drawn["Cid"] == [0, 40, 75, 125]  # out after hand 3: his line ends there
    assert x_positions(svg, "Cid") == x_positions(svg, "Ann")[:4]
    assert "style" not in svg and 'role="img"' in svg and 'aria-describedby="evening-note"' in svg


def test_zoliky_draws_its_elimination_limit_where_the_house_rule_puts_it() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"], options={"elimination": 150})
    play(game, ZOLIKY_HANDS[:2])
    svg = evening_svg(game)
    limit = re.search(r'<line x1="[\d.]+" y1="([\d.]+)"[^>]*class="chart-limit"[^>]*data-value="(\d+)"', svg)
    assert limit is not None and limit[2] == "150"
    assert round(y_to_value(svg)(float(limit[1]))) == 150
    assert "Out at 150" in svg


def test_an_open_evening_draws_no_limit() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"], options={"elimination": 0})
    play(game, ZOLIKY_HANDS[:1])
    assert "chart-limit" not in evening_svg(game)


@pytest.mark.parametrize(
    ("family", "players", "outcome", "target"),
    [
        ("gin", ["Ann", "Bob"], {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 12}}, 120),
        (
            "carousel",
            ["Ann", "Bob", "Cid"],
            {"knocker": "Ann", "out": None, "left": {"Ann": 3, "Bob": 12, "Cid": 9}},
            90,
        ),
    ],
)
def test_gin_and_carousel_draw_their_target(
    family: str, players: list[str], outcome: dict[str, Any], target: int
) -> None:
    game = GameFactory.create(family=family, players=players, options={"target": target})
    play(game, [outcome])
    svg = evening_svg(game)
    limit = re.search(r'<line x1="[\d.]+" y1="([\d.]+)"[^>]*class="chart-limit"[^>]*data-value="(\d+)"', svg)
    assert limit is not None and limit[2] == str(target)
    assert round(y_to_value(svg)(float(limit[1]))) == target
    assert f"Target {target}" in svg
    sheet = game_sheet(game=game)
    assert lines(svg) == {p: [0, sheet.rows[0].totals[i]] for i, p in enumerate(players)}


def test_rummikub_has_no_line_and_no_chart_before_the_first_hand() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    assert "chart-running" not in Client().get(f"/g/{game.public_id}/").content.decode()
    play(game, [{"winner": "Ann", "left": {"Bob": 24}}])
    svg = evening_svg(game)
    assert "chart-limit" not in svg and lines(svg) == {"Ann": [0, 24], "Bob": [0, -24]}


def test_the_legend_names_each_player_with_his_total() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"], options={"elimination": 100})
    play(game, ZOLIKY_HANDS)
    html = Client().get(f"/g/{game.public_id}/").content.decode()
    legend = re.search(r'<ul class="chart-legend">(.*?)</ul>', html, re.S)
    assert legend is not None
    entries = re.findall(r'<span class="name">([^<]+)</span> <span class="value">([^<]+)</span>', legend[1])
    sheet = game_sheet(game=game)
    assert entries == [
        ("Ann", _num(sheet.rows[-1].totals[0])),
        ("Bob", _num(sheet.rows[-1].totals[1])),
        ("Cid", "125"),
    ]
    assert "out after hand 3" in legend[1]
    # Told apart by more than colour: each line has its own dash pattern and marker.
    series = re.findall(r'<g class="chart-series series-\d".*?</g>', html, re.S)
    # ... and its own colour (the stylesheet's variable per series, the attribute without it).
    assert len(set(re.findall(r'<g class="chart-series (series-\d)"[^>]* color="(#\w+)"', html))) == 3
    dashes = [re.search(r'stroke-dasharray="([^"]+)"', s) for s in series]
    assert len({d[1] if d else "" for d in dashes}) == 3
    assert len({re.findall(r"<(circle|rect|path)", s)[0] for s in series}) == 3


def _num(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def test_the_settlement_draws_a_bar_per_player_either_side_of_zero() -> None:
    game = GameFactory.create(family="zoliky", options={"elimination": 0}, players=["Ann", "Bob", "Cid"])
    play(game, [{"closer": "Ann", "from_hand": False, "left": {"Bob": 166, "Cid": 45}}])
    html = Client().get(f"/g/{game.public_id}/settlement/").content.decode()
    svg = re.search(r'<svg class="chart chart-bars".*?</svg>', html, re.S)
    assert svg is not None and "style" not in svg[0] and 'aria-describedby="settlement-note"' in svg[0]
    zero_line = re.search(r'<line x1="([\d.]+)" y1="0"[^>]*chart-zero', svg[0])
    assert zero_line is not None
    zero = float(zero_line[1])
    bars = {
        name: (kind, int(value), float(x), float(width), label)
        for kind, name, value, x, width, label in re.findall(
            r'<g class="chart-bar (\w+)" data-name="(\w+)" data-value="(-?\d+)">.*?'
            r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)".*?'
            r'class="chart-label chart-value"[^>]*>([^<]+)</text>',
            svg[0],
        )
    }
    sheet = game_sheet(game=game)
    net = sheet.state.settlement.net  # type: ignore[union-attr]
    assert list(bars) == ["Ann", "Bob", "Cid"]
    for name, (kind, value, x, width, label) in bars.items():
        assert value == net[name]
        assert kind == ("positive" if value > 0 else "negative" if value < 0 else "zero")
        assert label == (f"+{value}" if value > 0 else _num(value))
        if value > 0:
            assert x == pytest.approx(zero, abs=0.1)  # grows right from zero
        elif value < 0:
            assert x + width == pytest.approx(zero, abs=0.1)  # grows left to zero
    # Longer bar, larger amount.
    by_width = sorted(bars, key=lambda n: bars[n][3])
    assert by_width == sorted(bars, key=lambda n: abs(net[n]))
    assert net["Ann"] > 0 > net["Bob"]


@pytest.mark.parametrize(
    ("family", "options", "expected"),
    [
        ("zoliky", {"elimination": 150}, {"option": "elimination", "value": 150, "kind": "limit"}),
        ("zoliky", {"elimination": 0}, None),
        ("gin", {"target": 120}, {"option": "target", "value": 120, "kind": "target"}),
        ("carousel", {}, {"option": "target", "value": 150, "kind": "target"}),
        ("rummikub", {}, None),
    ],
)
def test_the_api_gives_the_chart_line_and_the_link_to_watch(
    family: str, options: dict[str, int], expected: dict[str, Any] | None
) -> None:
    game = GameFactory.create(family=family, options=options)
    body = Client().get(f"/api/v1/games/{game.public_id}/").json()
    assert body["chart_line"] == expected
    assert body["share_url"] == f"http://testserver/g/{game.public_id}/"


def test_what_people_typed_is_escaped_in_the_chart() -> None:
    """The chart writes its numbers directly and everything people typed through escaping."""
    from games.sheets.svg import Line, Series, running_chart

    svg = str(
        running_chart(
            [Series('<b>Ann</b> & "Bo"', [0, 5, -3], "<i>out</i>"), Series("Cid", [0, 2, 9], "")],
            label="Totals <script>",
            line=Line(100, "Out at <100>"),
            described_by="note",
            x_title="hand <x>",
        )
    )
    assert "<b>" not in svg and "<i>" not in svg and "<script>" not in svg and "<100>" not in svg
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; &quot;Bo&quot;" in svg
    assert "&lt;i&gt;out&lt;/i&gt;" in svg and "Totals &lt;script&gt;" in svg
    assert 'points="' in svg and "−3" in svg  # the numbers, with a real minus sign
