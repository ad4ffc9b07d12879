"""Finished games for the federation tests: a club's game with its seats and results written
as the scoring leaves them (place and size chosen), at a given time."""

from __future__ import annotations

import datetime

from games.models import Club, Game, Player, Result, Seat
from games.text.names import loose_key, name_key


def club_player(club: Club, name: str) -> Player:
    return Player.objects.get_or_create(
        club=club, key=name_key(name), defaults={"name": name, "loose_key": loose_key(name)}
    )[0]


def played(
    club: Club, player: Player, *, place: int, size: int, when: datetime.datetime, family: str = "zoliky"
) -> Game:
    """A finished game of ``size`` players in which ``player`` took ``place``."""
    game = Game.objects.create(family=family, club=club, played_at=when)
    others = [club_player(club, f"Soupeř {n}") for n in range(1, size)]
    # The player's place, and the others' in the places left.
    places = [place, *(p for p in range(1, size + 1) if p != place)]
    for position, (someone, at) in enumerate(zip([player, *others], places, strict=True), start=1):
        seat = Seat.objects.create(game=game, position=position, name=someone.name, player=someone)
        Result.objects.create(
            game=game, seat=seat, player=someone, total=10 * at, place=at, winner=at == 1, finished=True
        )
    return game
