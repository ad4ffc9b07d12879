"""Player ratings: openskill's Plackett–Luce model, one update per finished game.

Pure code (no Django): a rating is a belief about a player's skill, a mean ``mu`` and an
uncertainty ``sigma``; every game moves the ratings of those who played it, each player his
own team, by the places they finished in (a shared place is a tie). ``replay`` rates a
sequence of games from given starting ratings; the database side
(``tournaments.rating_history``) decides which games, in which order, and stores each step.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), built once.
MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A cautious estimate of skill, μ − 3σ: what rankings compare (0 for a new player)."""
        return self.mu - 3 * self.sigma


START = Rating(MODEL.mu, MODEL.sigma)  # 25, 25/3


def _model_rating(rating: Rating) -> PlackettLuceRating:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def rate(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings after one game: ``places[i]`` is where the player with ``ratings[i]``
    finished (1 is first; equal places are a tie)."""
    if len(ratings) != len(places):
        raise ValueError("one place per player")
    if len(ratings) < 2:
        raise ValueError("a rated game needs two players")
    teams = [[_model_rating(r)] for r in ratings]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]


DISPLAY_OFFSET = 1000
DISPLAY_SCALE = 40


def display(rating: Rating) -> int:
    """The number shown for a rating: ``round(1000 + 40 × ordinal)``.

    openskill's ordinal (μ − 3σ) is 0 for a new player and spans a few tens between the
    weakest and the strongest, which reads poorly ("3.7"); scaled by 40 and shifted by 1000 it
    looks like the chess-style numbers players know: a newcomer shows 1000, and as games
    shrink his σ and settle his μ he moves up or down in steps of tens."""
    return round(DISPLAY_OFFSET + DISPLAY_SCALE * rating.ordinal)


def display_sigma(rating: Rating) -> int:
    """The uncertainty σ on the scale of :func:`display`, so that it reads beside the rating as
    "1305 ± 120", not "± 3.0"."""
    return round(DISPLAY_SCALE * rating.sigma)


def win_chances(ratings: Sequence[Rating]) -> list[float]:
    """Each player's chance of winning one game among these players (they sum to 1)."""
    if len(ratings) < 2:
        raise ValueError("a game needs two players")
    return list(MODEL.predict_win([[_model_rating(r)] for r in ratings]))


@dataclass(frozen=True, slots=True)
class RatedGame[K: Hashable]:
    """One game to rate: ``players[i]`` finished in ``places[i]``; ``key`` names the game."""

    key: object
    players: tuple[K, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RatingStep[K: Hashable]:
    """One player's rating before and after one game."""

    key: object
    player: K
    place: int
    players: int
    before: Rating
    after: Rating


def replay[K: Hashable](games: Iterable[RatedGame[K]], start: Mapping[K, Rating]) -> list[RatingStep[K]]:
    """Rate ``games`` one after another in the order given. A player not in ``start`` begins
    at ``START``. Returns, game by game, each player's step (in the game's player order)."""
    current: dict[K, Rating] = dict(start)
    steps: list[RatingStep[K]] = []
    for game in games:
        before = [current.get(p, START) for p in game.players]
        after = rate(before, game.places)
        count = len(game.players)
        for player, place, old, new in zip(game.players, game.places, before, after, strict=True):
            current[player] = new
            steps.append(RatingStep(game.key, player, place, count, old, new))
    return steps
