"""A tournament's final after its rounds: who qualifies, how a knockout is seeded, and the final
places. Pure functions, no Django.

Two kinds of final:

- a *final table*: the top ``size`` of the standings play one more game at one table;
- a *knockout* (two-player families): the top 4 or 8, seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6 so that
  the two best can meet only in the final, each match's winner going on.

The final either *decides* the top places (the final's order ranks its players above everyone
else, the standings order the rest) or *adds* its points to the standings like another round
(then the standings alone give the places, and nothing here changes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .errors import ScoringError

Kind = Literal["table", "knockout"]
Counts = Literal["decides", "adds"]
KNOCKOUT_SIZES = (4, 8)


def qualifiers(order: Sequence[int], size: int) -> tuple[int, ...]:
    """The players of the final: the first ``size`` of ``order`` (the standings, or a season's
    qualifiers, best first)."""
    if size < 2:
        raise ScoringError("final_size", size=size)
    if len(order) < size:
        raise ScoringError("final_too_few", size=size, players=len(order))
    return tuple(order[:size])


def bracket(size: int) -> tuple[int, ...]:
    """The seeds (1 = best) in bracket order: slots 0 and 1 meet, 2 and 3, ...; the winners of
    neighbouring matches meet next. Standard seeding: built by doubling, each seed ``s`` of the
    smaller bracket meeting ``2n + 1 - s``, so with favourites always winning every round pairs
    the best left with the worst left, and seeds 1 and 2 meet only in the final."""
    if size < 2 or size & (size - 1):
        raise ScoringError("final_knockout_size", size=size)
    seeds = [1]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [s for seed in seeds for s in (seed, total - seed)]
    return tuple(seeds)


def first_matches(order: Sequence[int], size: int) -> tuple[tuple[int, int], ...]:
    """The knockout's first round: pairs of players (the better seed first), bracket order."""
    seeded = qualifiers(order, size)
    slots = [seeded[seed - 1] for seed in bracket(size)]
    return tuple((slots[i], slots[i + 1]) for i in range(0, size, 2))


def next_matches(winners: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The next knockout round from the winners of the last one, in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise ScoringError("final_knockout_size", size=len(winners))
    return tuple((winners[i], winners[i + 1]) for i in range(0, len(winners), 2))


def final_places(
    order: Sequence[int],
    final: Sequence[Sequence[int]],
    *,
    counts: Counts,
    ranks: Sequence[int] | None = None,
) -> tuple[tuple[int, int], ...]:
    """``(player, place)`` for everyone, best first.

    ``order``: the standings (best first, everyone); ``ranks``: their ranks beside it (players
    outside the final who share a rank share their place; without it every place differs).
    ``final``: the final's outcome as groups, best first: for a final table its finishing order
    (players who tied at it share a group), for a knockout ``[[champion], [runner-up],
    [semi-final losers], [quarter-final losers]]``. Deciding: the final's groups take the first
    places, a group's players sharing its place but listed in standings order; everyone else
    follows in standings order. Adding: the standings are the places (their points already
    include the final's)."""
    if counts == "adds":
        if ranks is not None:
            return tuple(zip(order, ranks, strict=True))
        return tuple((player, place) for place, player in enumerate(order, start=1))
    position = {player: index for index, player in enumerate(order)}
    finalists = [p for group in final for p in group]
    if len(set(finalists)) != len(finalists) or any(p not in position for p in finalists):
        raise ValueError("a finalist twice or not in the standings")
    rows: list[tuple[int, int]] = []
    for group in final:
        place = len(rows) + 1
        rows.extend((player, place) for player in sorted(group, key=position.__getitem__))
    chosen = set(finalists)
    rank_of = dict(zip(order, ranks, strict=True)) if ranks is not None else {}
    previous: int | None = None
    for player in order:
        if player in chosen:
            continue
        rank = rank_of.get(player)
        shared = rank is not None and rank == previous and len(rows) > len(finalists)
        rows.append((player, rows[-1][1] if shared else len(rows) + 1))
        previous = rank
    return tuple(rows)


def knockout_groups(rounds: Sequence[Sequence[tuple[int, int]]]) -> list[list[int]]:
    """The groups ``final_places`` takes, from a knockout's matches as ``(winner, loser)``,
    round by round (the last round is the final)."""
    if not rounds or len(rounds[-1]) != 1:
        raise ValueError("a knockout ends with one match")
    champion, runner_up = rounds[-1][0]
    groups = [[champion], [runner_up]]
    for matches in reversed(rounds[:-1]):
        groups.append([loser for _winner, loser in matches])
    return groups
