"""Žolíky's end of the evening in crowns: conversion, the house style's debts, and the
fewest transfers that settle them.

- crowns: a total divided by ten, rounded half up (286 -> 29, 285 -> 29, 284 -> 28,
  -15 -> -1, -16 -> -2), so that the same point difference costs the same crowns whether or
  not a total is below zero;
- house style ``pairs`` (default): every pair of players settles its difference, the one
  with more penalty crowns paying the other; ``winner``: everyone pays the winner (the
  fewest penalty points, RULES.md) his difference in crowns; several tied winners share
  each payment, whole crowns, the odd crowns going round the winners in seat order;
- ``net``: what each player receives (+) or pays (-) in all;
- ``transfers``: payments that realise every net amount with the fewest transfers.

Fewest transfers is NP-hard in general (it contains subset sum). With n players that owe or
are owed something, k transfers can settle them only if the players split into n - k
groups whose nets sum to zero (each connected group of transfers needs at least its size
minus one of them), and a group of size s is always settled with s - 1 transfers. So the
minimum is n minus the largest number of zero-sum groups, found exactly by a dynamic
programme over subsets: O(2^n * n), trivial for Žolíky's at most six players.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.rules import RuleSet

from .errors import ScoringError
from .families import family_info
from .reading import check_player_count


@dataclass(frozen=True, slots=True)
class Payment:
    payer: str
    payee: str
    crowns: int

    def as_dict(self) -> dict[str, object]:
        return {"from": self.payer, "to": self.payee, "crowns": self.crowns}


@dataclass(frozen=True, slots=True)
class Settlement:
    style: str  # "pairs" | "winner"
    totals: Mapping[str, int]  # penalty points
    crowns: Mapping[str, int]  # totals / 10, rounded half up
    winners: tuple[str, ...]  # fewest penalty points
    debts: tuple[Payment, ...]  # what the house style makes each player owe whom
    net: Mapping[str, int]  # + receives, - pays
    transfers: tuple[Payment, ...]  # the fewest payments realising ``net``

    def as_dict(self) -> dict[str, object]:
        return {
            "style": self.style,
            "totals": dict(self.totals),
            "crowns": dict(self.crowns),
            "winners": list(self.winners),
            "debts": [d.as_dict() for d in self.debts],
            "net": dict(self.net),
            "transfers": [t.as_dict() for t in self.transfers],
        }


def to_crowns(points: int) -> int:
    """Penalty points to crowns: divided by ten, rounded half up (286 -> 29, -15 -> -1)."""
    return (points + 5) // 10


def settle(*, rules: RuleSet, totals: Mapping[str, int]) -> Settlement:
    """The settlement of Žolíky totals (penalty points, seat order) by ``rules``' house style."""
    if not family_info(rules.family).settles_in_crowns:
        raise ScoringError("no_settlement", family=rules.family)
    for player, value in totals.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoringError("bad_total", player=player, value=value)
    check_player_count(len(totals), rules)
    players = list(totals)
    crowns = {p: to_crowns(totals[p]) for p in players}
    fewest = min(totals.values())
    winners = tuple(p for p in players if totals[p] == fewest)
    best = crowns[winners[0]]
    style = rules.opt_str("settlement")
    debts: list[Payment] = []
    if style == "pairs":
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                if crowns[a] > crowns[b]:
                    debts.append(Payment(a, b, crowns[a] - crowns[b]))
                elif crowns[b] > crowns[a]:
                    debts.append(Payment(b, a, crowns[b] - crowns[a]))
    else:
        losers = [p for p in players if p not in winners]
        for turn, payer in enumerate(losers):
            share, odd = divmod(crowns[payer] - best, len(winners))
            for index in range(len(winners)):
                payee = winners[(turn + index) % len(winners)]
                amount = share + (1 if index < odd else 0)
                if amount:
                    debts.append(Payment(payer, payee, amount))
    net = dict.fromkeys(players, 0)
    for debt in debts:
        net[debt.payer] -= debt.crowns
        net[debt.payee] += debt.crowns
    return Settlement(style, dict(totals), crowns, winners, tuple(debts), net, fewest_transfers(net))


def fewest_transfers(net: Mapping[str, int]) -> tuple[Payment, ...]:
    """Payments realising ``net`` (+ receives, - pays; summing to zero) with the fewest
    transfers, exactly (see the module's docstring). Deterministic: seat order decides ties."""
    if sum(net.values()) != 0:
        raise ValueError("net amounts must sum to zero")
    people = [p for p in net if net[p] != 0]
    n = len(people)
    size = 1 << n
    sums = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + net[people[low]]
    # best[mask]: the most zero-sum prefixes over orderings of mask = the most zero-sum groups
    best = [0] * size
    last = [0] * size
    for mask in range(1, size):
        choice, value = -1, -1
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] > value:
                choice, value = i, best[mask ^ (1 << i)]
        best[mask] = value + (1 if sums[mask] == 0 else 0)
        last[mask] = choice
    order: list[int] = []
    mask = size - 1
    while mask:
        order.append(last[mask])
        mask ^= 1 << last[mask]
    order.reverse()
    transfers: list[Payment] = []
    group: list[int] = []
    running = 0
    for i in order:
        group.append(i)
        running += net[people[i]]
        if running == 0:
            transfers.extend(_settle_group([people[j] for j in group], net))
            group = []
    return tuple(transfers)


def _settle_group(group: list[str], net: Mapping[str, int]) -> list[Payment]:
    """A zero-sum group of s players settled with at most s - 1 transfers: the biggest payer
    pays the biggest receiver until one of them is square."""
    owe = {p: -net[p] for p in group if net[p] < 0}
    due = {p: net[p] for p in group if net[p] > 0}
    payments: list[Payment] = []
    while owe:
        payer = max(owe, key=lambda p: (owe[p], -group.index(p)))
        payee = max(due, key=lambda p: (due[p], -group.index(p)))
        amount = min(owe[payer], due[payee])
        payments.append(Payment(payer, payee, amount))
        for book, person in ((owe, payer), (due, payee)):
            book[person] -= amount
            if not book[person]:
                del book[person]
    return payments
