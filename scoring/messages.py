"""English message templates of every error code scoring raises.

Same shape as ``engine.messages``: ``MESSAGES[code]`` is a ``str.format`` template
over the error's params. ``gettext_noop`` is the engine's identity marker, so Django's
``makemessages`` extracts the strings while this package never imports Django; the web
layer translates with ``gettext(MESSAGES[error.code]).format(**error.params)``.
"""

from __future__ import annotations

from engine.messages import gettext_noop

MESSAGES: dict[str, str] = {
    # The shape of the input.
    "bad_json": gettext_noop("the input is not valid JSON: {detail}"),
    "outcome_not_object": gettext_noop("a hand's outcome must be a JSON object"),
    "game_not_object": gettext_noop('a game must be a JSON object {{"players": [...], "hands": [...]}}'),
    "unknown_field": gettext_noop("{family} outcomes have no field '{field}' (fields: {fields})"),
    "missing_field": gettext_noop("the field '{field}' is missing"),
    "field_type": gettext_noop("the field '{field}' must be {expected}"),
    # Players.
    "bad_player_name": gettext_noop("a player's name must be a non-empty text, not '{value}'"),
    "duplicate_player": gettext_noop("{player} is listed twice"),
    "player_count": gettext_noop("{family} is played by {minimum} to {maximum} players, not {count}"),
    "unknown_player": gettext_noop("{player} (in {field}) is not a player in this hand"),
    "missing_player": gettext_noop("{player} is in the game but missing from this hand's players"),
    # Counts of points, cards or tiles.
    "bad_count": gettext_noop(
        "the {field} of {player} must be whole points or the cards left, not '{value}'"
    ),
    "negative_count": gettext_noop("the {field} of {player} cannot be negative ({points})"),
    "missing_count": gettext_noop("the {field} of {player} is missing"),
    "count_too_high": gettext_noop(
        "{player} cannot have {points} in hand: no hand can hold more than {maximum}"
    ),
    "two_players_out": gettext_noop(
        "only one player can go out, but {player} has no cards left as well as {other}"
    ),
    "out_not_recorded": gettext_noop(
        "{player} has nothing left in hand, so {player} went out: record it as such"
    ),
    # Counts missing: players brought back by a correction into hands recorded without them.
    "missing_not_allowed": gettext_noop(
        "{family} hands need every player's count: only in Žolíky, where players drop out, can a "
        "correction bring a player back into hands recorded without them"
    ),
    "missing_with_count": gettext_noop("the {field} of {player} is given, so it cannot also be missing"),
    "missing_closer": gettext_noop("{player} closed, so no count of {player} can be missing"),
    # Žolíky.
    "closer_with_cards": gettext_noop("{player} closed, so cannot have cards left ({points} points)"),
    "option_off": gettext_noop("the field '{field}' needs the house rule {option}, which is off"),
    "laid_without_laydown": gettext_noop(
        "nobody lays down in this game (house rule no_laydown), but {player} has laid-down points"
    ),
    "must_close_from_hand": gettext_noop(
        "nobody lays down in this game (house rule no_laydown), so every close is from hand"
    ),
    # Gin and Carousel.
    "knock_over_limit": gettext_noop("{player} cannot knock with {points} points; the limit is {limit}"),
    "gin_with_deadwood": gettext_noop("{player} cannot go gin with {points} points of deadwood"),
    "gin_without_knocker": gettext_noop("gin needs the player who went down (field 'knocker')"),
    "deadwood_or_hands": gettext_noop("give either 'deadwood' (points) or 'hands' (cards), not both"),
    "melds_without_hands": gettext_noop("the knocker's 'melds' need both 'hands' as cards"),
    "hand_size": gettext_noop("{player} must hold {expected} cards after the knock, not {count}"),
    "melds_not_in_hand": gettext_noop("the declared melds use {card}, which is not in {player}'s hand"),
    "knock_and_out": gettext_noop("a hand ends by a knock or by going out, not both"),
    "out_with_cards": gettext_noop("{player} went out, so cannot have cards left ({points} points)"),
    "knocker_without_cards": gettext_noop(
        "{player} has no cards left: that is going out (field 'out'), not a knock"
    ),
    # Rummikub.
    "winner_with_tiles": gettext_noop("the winner {player} cannot have tiles left ({points} points)"),
    # Games.
    "eliminated_player": gettext_noop(
        "{player} was eliminated in hand {eliminated_in} and cannot play in a later hand"
    ),
    "game_over": gettext_noop("the game ended after hand {finished_after}; no later hand can be scored"),
    # Settlement.
    "no_settlement": gettext_noop("only Žolíky is settled in crowns, not {family}"),
    "bad_total": gettext_noop("the total of {player} must be a whole number, not '{value}'"),
    "evening_empty": gettext_noop("an evening needs at least one game"),
    "evening_players": gettext_noop("game {game} of the evening has other players than the first"),
    # seating
    "seating_limits": gettext_noop(
        "tables of {minimum} to {maximum} players preferring {preferred} do not make sense: "
        "the minimum must be at least 2 and the preferred size between the minimum and the maximum"
    ),
    "seating_too_few": gettext_noop("{players} players are too few: a table needs at least {minimum}"),
    "seating_no_fit": gettext_noop(
        "{players} players cannot sit at tables of {minimum} to {maximum} without a bye; "
        "{fewer} or {more} players would fit, or allow byes"
    ),
    "seating_pin_table": gettext_noop(
        "{player} is pinned to table {table}, but this round has only {tables} tables"
    ),
    "seating_pin_full": gettext_noop("{pinned} players are pinned to table {table}, which seats only {size}"),
    # standings
    "points_custom_size": gettext_noop("the custom points list has no points for a table of {size}"),
    "points_custom_count": gettext_noop(
        "a table of {size} needs {size} points, one for each place, not {count}"
    ),
    "points_custom_order": gettext_noop(
        "at a table of {size}, place {place} cannot earn more points than the place before it"
    ),
    "points_custom_bad_size": gettext_noop(
        "a table size must be a whole number of at least 1, not '{value}'"
    ),
    "points_custom_duplicate": gettext_noop("the points for a table of {size} are given twice"),
    "points_custom_number": gettext_noop("'{value}' (table of {size}) is not a number of points"),
    "points_custom_syntax": gettext_noop("'{part}' is not 'size: points by place', like '4: 5 3 2 0'"),
    "points_custom_empty": gettext_noop(
        "the custom points list is empty; write it like '4: 5 3 2 0; 3: 4 2 0'"
    ),
    "tiebreak_unknown": gettext_noop("'{key}' is not a tie-break (tie-breaks: {known})"),
    "tiebreak_duplicate": gettext_noop("the tie-break '{key}' is listed twice"),
    # finals
    "final_size": gettext_noop("a final needs at least 2 players, not {size}"),
    "final_too_few": gettext_noop("a final of {size} needs {size} players; only {players} can play it"),
    "final_knockout_size": gettext_noop("a knockout needs 4 or 8 players, not {size}"),
    # league
    "league_places_empty": gettext_noop(
        "the points by place are empty; write them like '25 18 15 12 10 8 6 4 2 1'"
    ),
    "league_places_number": gettext_noop("'{value}' (place {place}) is not a number of points"),
    "league_places_negative": gettext_noop("place {place} cannot earn negative points ({value})"),
    "league_places_order": gettext_noop("place {place} cannot earn more points than the place before it"),
    "league_option_negative": gettext_noop("{option} must be a whole number of at least 0, not {value}"),
}
