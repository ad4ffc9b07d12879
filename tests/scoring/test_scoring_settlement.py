"""Žolíky's settlement in crowns (RULES.md §1, "Ending"): conversion, house styles and the
fewest transfers, with properties checked by hypothesis against a brute force."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from scoring import Payment, fewest_transfers, settle, to_crowns

from ._support import rules


@pytest.mark.parametrize(
    ("points", "crowns"),
    [
        (286, 29),
        (285, 29),
        (284, 28),
        (0, 0),
        (4, 0),
        (5, 1),
        (15, 2),
        (-10, -1),
        (-14, -1),
        (-15, -1),
        (-16, -2),
        (-25, -2),
        (-5, 0),
    ],
)
def test_to_crowns_rounds_half_up_at_the_units(points: int, crowns: int) -> None:
    assert to_crowns(points) == crowns


@pytest.mark.parametrize("shift", [-40, -30, -20, -10, 0, 10, 20])
def test_the_same_point_difference_costs_the_same_crowns_wherever_zero_lies(shift: int) -> None:
    # Ann 5 and Bob -5 are ten points apart, exactly like Ann 15 and Bob 5: Ann pays Bob one
    # crown either way; a closer's credit taking a total below zero must not change that.
    s = settle(rules=rules("zoliky"), totals={"Ann": 5 + shift, "Bob": -5 + shift})
    assert s.debts == (Payment("Ann", "Bob", 1),)


TOTALS = {"Ann": 286, "Bob": 120, "Cid": 45, "Dan": -10}  # crowns 29, 12, 5 (4.5), -1


def test_pairs_every_pair_settles_its_difference() -> None:
    s = settle(rules=rules("zoliky"), totals=TOTALS)
    assert s.style == "pairs"
    assert s.crowns == {"Ann": 29, "Bob": 12, "Cid": 5, "Dan": -1}
    assert s.debts == (
        Payment("Ann", "Bob", 17),
        Payment("Ann", "Cid", 24),
        Payment("Ann", "Dan", 30),
        Payment("Bob", "Cid", 7),
        Payment("Bob", "Dan", 13),
        Payment("Cid", "Dan", 6),
    )
    # net = sum of crowns - n * own crowns (45 - 4c)
    assert s.net == {"Ann": -71, "Bob": -3, "Cid": 25, "Dan": 49}
    assert s.winners == ("Dan",)
    assert len(s.transfers) == 3
    _assert_realises(s.transfers, s.net)


def test_winner_everyone_pays_the_winner() -> None:
    s = settle(rules=rules("zoliky", settlement="winner"), totals=TOTALS)
    assert s.debts == (Payment("Ann", "Dan", 30), Payment("Bob", "Dan", 13), Payment("Cid", "Dan", 6))
    assert s.net == {"Ann": -30, "Bob": -13, "Cid": -6, "Dan": 49}
    assert sorted(t.as_dict()["crowns"] for t in s.transfers) == [6, 13, 30]  # type: ignore[type-var]


def test_winner_style_tied_winners_share_each_payment() -> None:
    s = settle(rules=rules("zoliky", settlement="winner"), totals={"Ann": 100, "Bob": 30, "Cid": 30})
    assert s.winners == ("Bob", "Cid")
    assert s.debts == (Payment("Ann", "Bob", 4), Payment("Ann", "Cid", 3))


def test_winner_style_pays_the_player_with_fewest_points_not_everyone_in_his_crown() -> None:
    # RULES.md: the winner is the player with the fewest penalty points. Bob (4 points) is
    # not the evening's winner although he rounds to the same 0 crowns as Ann (1 point).
    s = settle(rules=rules("zoliky", settlement="winner"), totals={"Ann": 1, "Bob": 4, "Cid": 100})
    assert s.winners == ("Ann",)
    assert s.debts == (Payment("Cid", "Ann", 10),)
    assert s.net == {"Ann": 10, "Bob": 0, "Cid": -10}


def test_fewest_transfers_uses_zero_sum_groups() -> None:
    # {-3, +3} and {-7, +2, +5}: 3 transfers, where paying the biggest first would take 4
    net = {"A": -7, "B": -3, "C": 3, "D": 2, "E": 5}
    transfers = fewest_transfers(net)
    assert len(transfers) == 3
    assert Payment("B", "C", 3) in transfers
    _assert_realises(transfers, net)


def test_nobody_owes_anything() -> None:
    s = settle(rules=rules("zoliky"), totals={"Ann": 44, "Bob": 36})
    assert s.debts == () and s.transfers == () and s.net == {"Ann": 0, "Bob": 0}


def test_settlement_rejects_other_families_and_bad_totals() -> None:
    with pytest.raises(EngineError) as caught:
        settle(rules=rules("gin"), totals={"Ann": 1, "Bob": 2})
    assert caught.value.code == "no_settlement"
    assert caught.value.message == "only Žolíky is settled in crowns, not gin"
    with pytest.raises(EngineError) as caught:
        settle(rules=rules("zoliky"), totals={"Ann": 1, "Bob": "2"})  # type: ignore[dict-item]
    assert caught.value.code == "bad_total"
    with pytest.raises(EngineError) as caught:
        settle(rules=rules("zoliky"), totals={"Ann": 1})
    assert caught.value.code == "player_count"


# ----------------------------------------------------------------------------- properties


def _assert_realises(transfers: tuple[Payment, ...], net: Mapping[str, int]) -> None:
    balance = dict.fromkeys(net, 0)
    for t in transfers:
        assert t.crowns > 0 and t.payer != t.payee
        balance[t.payer] -= t.crowns
        balance[t.payee] += t.crowns
    assert balance == dict(net)


def _brute_force_minimum(values: list[int]) -> int:
    """Exhaustive search (independent of the subset DP): settle the first open balance
    against every opposite one in turn; an optimum exists among such transfer sequences."""
    values = [v for v in values if v]
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = len(values)
    for i, other in enumerate(rest):
        if (first > 0) != (other > 0):
            nxt = rest.copy()
            nxt[i] = other + first
            best = min(best, 1 + _brute_force_minimum(nxt))
    return best


players = st.lists(st.sampled_from("ABCDEF"), min_size=2, max_size=6, unique=True)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), names=players, style=st.sampled_from(["pairs", "winner"]))
def test_transfers_pay_every_debt_exactly_and_are_fewest(
    data: st.DataObject, names: list[str], style: str
) -> None:
    totals = {n: data.draw(st.integers(-100, 600), label=n) for n in names}
    s = settle(rules=rules("zoliky", settlement=style), totals=totals)
    _assert_realises(s.debts, s.net)
    _assert_realises(s.transfers, s.net)
    assert len(s.transfers) <= len(names) - 1
    assert len(s.transfers) == _brute_force_minimum(list(s.net.values()))
    # the winner never pays, the most-penalised never receives
    assert all(s.net[w] >= 0 for w in s.winners)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-30, 30), min_size=1, max_size=7))
def test_fewest_transfers_on_arbitrary_nets(values: list[int]) -> None:
    net = {f"p{i}": v for i, v in enumerate(values)}
    net["last"] = -sum(values)
    transfers = fewest_transfers(net)
    _assert_realises(transfers, net)
    assert len(transfers) == _brute_force_minimum(list(net.values()))
