"""The whole evening settled at once (RULES.md §1, "Ending"): the source rules write penalties
down all evening and divide the total by ten at the end, so the evening's games are summed in
points per player first and converted to crowns once. Settling each game and adding the crowns
would round once per game (14 + 14 points: 1 + 1 crowns, where the evening owes 3).

Plain arithmetic over the games' totals: whoever reads them (the site, at read time) gets a
settlement that follows every correction and undo of any of the games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.rules import RuleSet

from .errors import ScoringError
from .settlement import Settlement, settle


def evening_totals(games: Sequence[Mapping[str, int]]) -> dict[str, int]:
    """Each player's penalty points summed over the evening's games (in the first game's seat
    order); every game must have the same players."""
    if not games:
        raise ScoringError("evening_empty")
    players = list(games[0])
    for number, totals in enumerate(games, start=1):
        if set(totals) != set(players):
            raise ScoringError("evening_players", game=number)
    return {p: sum(totals[p] for totals in games) for p in players}


def settle_evening(*, rules: RuleSet, games: Sequence[Mapping[str, int]]) -> Settlement:
    """The settlement of an evening of Žolíky games (each game's totals, penalty points) by
    ``rules``' house style: the summed points in crowns, the style's debts, the fewest
    transfers."""
    return settle(rules=rules, totals=evening_totals(games))
