"""The panels this app adds to the games app's pages (registered in ``TournamentsConfig.ready``):
each player's chance to win on a club game's page before its first hand, and a player's
ratings on his page."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games.models import Game, Player
from scoring import ratings as rating_model
from tournaments.derived import freshness
from tournaments.selectors.seasons import game_chances, player_ratings_summary


def win_chances(request: HttpRequest, game: Game) -> SafeString | None:
    """Before the first hand of a club game: each player's chance to win by the club's ratings
    (2 queries). Not shown once play has begun, nor when nobody at the table has played a
    rated game yet (everyone would be even)."""
    if game.club is None or game.next_hand_number != 1:
        return None
    found = game_chances(game=game)
    if not found.rated:
        return None
    rows = [
        {"name": c.name, "chance": round(100 * c.chance), "rating": rating_model.display(c.rating)}
        for c in found.chances
    ]
    return SafeString(render_to_string("tournaments/_win_chances.html", {"rows": rows}, request=request))


def player_ratings(request: HttpRequest, player: Player) -> SafeString | None:
    """A club player's rating in each family he has played, with a link to his rating page."""
    if player.club_id is None:
        return None
    summary = player_ratings_summary(player=player)
    if not summary:
        return None
    return SafeString(
        render_to_string(
            "tournaments/_player_ratings.html",
            {"player": player, "ratings": summary, "fresh": freshness(player.club_id)},
            request=request,
        )
    )
