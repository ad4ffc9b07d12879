"""The whole evening settled at once: the games' penalty points summed per player, converted
to crowns once (÷10, half up), the house style's debts and the fewest transfers; by hand on a
worked example and by hypothesis against a brute-force reference."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from scoring import Payment, settle, settle_evening

from ._support import rules


def test_a_worked_evening_by_hand() -> None:
    # Three games: Ann 14 + 14 + 17 = 45, Bob 120 + 3 + 12 = 135, Cid -10 + 26 + 0 = 16.
    games = [
        {"Ann": 14, "Bob": 120, "Cid": -10},
        {"Ann": 14, "Bob": 3, "Cid": 26},
        {"Ann": 17, "Bob": 12, "Cid": 0},
    ]
    s = settle_evening(rules=rules("zoliky"), games=games)
    assert s.totals == {"Ann": 45, "Bob": 135, "Cid": 16}
    # 4.5 -> 5, 13.5 -> 14, 1.6 -> 2: once, at the end of the evening
    assert s.crowns == {"Ann": 5, "Bob": 14, "Cid": 2}
    assert s.debts == (Payment("Bob", "Ann", 9), Payment("Ann", "Cid", 3), Payment("Bob", "Cid", 12))
    assert s.net == {"Ann": 6, "Bob": -21, "Cid": 15}
    assert s.winners == ("Cid",)
    assert sorted((t.payer, t.payee, t.crowns) for t in s.transfers) == [
        ("Bob", "Ann", 6),
        ("Bob", "Cid", 15),
    ]
    # Settling each game and adding its crowns would round three times: Ann 1 + 1 + 2 = 4.
    per_game = [settle(rules=rules("zoliky"), totals=g).crowns["Ann"] for g in games]
    assert sum(per_game) == 4 != s.crowns["Ann"]


def test_everyone_pays_the_evenings_winner_in_that_style() -> None:
    games = [{"Ann": 30, "Bob": 0}, {"Ann": 0, "Bob": 24}]
    s = settle_evening(rules=rules("zoliky", settlement="winner"), games=games)
    assert s.totals == {"Ann": 30, "Bob": 24} and s.winners == ("Bob",)
    assert s.debts == (Payment("Ann", "Bob", 1),)  # 3 crowns - 2 crowns


def test_an_evening_needs_games_with_the_same_players() -> None:
    with pytest.raises(EngineError) as caught:
        settle_evening(rules=rules("zoliky"), games=[])
    assert caught.value.code == "evening_empty"
    with pytest.raises(EngineError) as caught:
        settle_evening(rules=rules("zoliky"), games=[{"Ann": 1, "Bob": 2}, {"Ann": 1, "Cid": 2}])
    assert caught.value.code == "evening_players"
    assert caught.value.message == "game 2 of the evening has other players than the first"
    with pytest.raises(EngineError) as caught:
        settle_evening(rules=rules("gin"), games=[{"Ann": 1, "Bob": 2}])
    assert caught.value.code == "no_settlement"


# ----------------------------------------------------------------------------- reference


def _crowns(points: int) -> int:
    """Half up at the units, written out with exact fractions (not the module's // trick)."""
    tenth = Fraction(points, 10)
    whole = tenth.numerator // tenth.denominator
    return whole + 1 if tenth - whole >= Fraction(1, 2) else whole


def _fewest(net: dict[str, int]) -> int:
    """The fewest transfers by trying every split of the players into zero-sum groups: each
    group of s players costs s - 1 transfers (exhaustive over set partitions)."""
    people = [p for p in net if net[p]]

    def partitions(items: list[str]) -> list[list[list[str]]]:
        if not items:
            return [[]]
        first, rest = items[0], items[1:]
        out: list[list[list[str]]] = []
        for size in range(len(rest) + 1):
            for others in itertools.combinations(rest, size):
                group = [first, *others]
                remaining = [p for p in rest if p not in others]
                out.extend([group, *tail] for tail in partitions(remaining))
        return out

    best = len(people)
    for split in partitions(people):
        if all(sum(net[p] for p in group) == 0 for group in split):
            best = min(best, len(people) - len(split))
    return best


names = st.lists(st.sampled_from("ABCDEF"), min_size=2, max_size=6, unique=True)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), players=names, style=st.sampled_from(["pairs", "winner"]))
def test_the_evening_against_a_brute_force_reference(
    data: st.DataObject, players: list[str], style: str
) -> None:
    count = data.draw(st.integers(1, 5), label="games")
    games = [{p: data.draw(st.integers(-60, 400), label=f"{p}{i}") for p in players} for i in range(count)]
    s = settle_evening(rules=rules("zoliky", settlement=style), games=games)
    summed = {p: sum(g[p] for g in games) for p in players}
    crowns = {p: _crowns(summed[p]) for p in players}
    assert dict(s.totals) == summed
    assert dict(s.crowns) == crowns
    fewest = min(summed.values())
    assert s.winners == tuple(p for p in players if summed[p] == fewest)
    best = crowns[s.winners[0]]
    if style == "pairs":
        assert dict(s.net) == {p: sum(crowns[q] - crowns[p] for q in players) for p in players}
    else:
        losers = [p for p in players if p not in s.winners]
        assert all(s.net[p] == best - crowns[p] for p in losers)
        owed = sum(crowns[p] - best for p in losers)
        shares = [s.net[w] for w in s.winners]
        assert sum(shares) == owed and max(shares) - min(shares) <= len(losers)
    balance = dict.fromkeys(players, 0)
    for t in s.transfers:
        assert t.crowns > 0 and t.payer != t.payee
        balance[t.payer] -= t.crowns
        balance[t.payee] += t.crowns
    assert balance == dict(s.net)
    assert len(s.transfers) == _fewest(dict(s.net))
    # the games' order makes no difference to the evening
    again = settle_evening(rules=rules("zoliky", settlement=style), games=games[::-1])
    assert again.crowns == s.crowns and again.net == s.net
