"""English templates of the tournament services' error codes, registered with
``games.text.errors`` when the app loads (the seating's and standings' own codes are in
``scoring.messages``; a fuller wording here wins on the tournament pages)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

MESSAGES: dict[str, str] = {
    "tournament_name": gettext_noop("Give the tournament a name."),
    "rounds_range": gettext_noop("A tournament has 1 to {maximum} rounds."),
    "round_hands_range": gettext_noop("A round has 0 to {maximum} hands (0: play each game to its end)."),
    "round_minutes_range": gettext_noop("A round's clock has 0 to {maximum} minutes (0: no clock)."),
    "table_limits": gettext_noop(
        "Table sizes must go smallest ≤ preferred ≤ largest, each from {minimum} to {maximum} players "
        "for this game."
    ),
    "points_custom_missing": gettext_noop("The custom points need a list for tables of {size}."),
    "settings_locked": gettext_noop(
        "A round has started, so the game, its house rules, the hands per round and the table sizes are "
        "fixed. Points, tie-breaks, name, date and rounds can still change."
    ),
    "rounds_below_seated": gettext_noop(
        "{rounds} rounds are seated already: the tournament needs at least that many."
    ),
    "rounds_after_final": gettext_noop(
        "The final is seated, so the number of rounds is fixed: take back the final's seating first."
    ),
    "stale_tournament": gettext_noop(
        "Someone changed the tournament's settings meanwhile. Check them and save again."
    ),
    "stale_entry": gettext_noop(
        "Someone changed this player's registration meanwhile. Check the list and try again."
    ),
    "stale_round": gettext_noop(
        "Someone changed this round meanwhile (seated it again or moved a player). Check the tables and "
        "try again."
    ),
    "day_range": gettext_noop("Choose a day in the years {first} to {last}."),
    "check_in_key": gettext_noop(
        "This is not the tournament's check-in link. Scan the code at the door again."
    ),
    "check_in_unknown": gettext_noop("That player is not registered for this tournament. Ask the organiser."),
    "check_in_closed": gettext_noop("The check-in is closed. Ask the organiser to check you in."),
    "check_in_dropped": gettext_noop("{player} has dropped out. Ask the organiser to bring you back."),
    "entry_other_club": gettext_noop("{player} is not a player of this club."),
    "entry_gone": gettext_noop("This player is no longer registered."),
    "entry_remove_seated": gettext_noop(
        "Round 1 is seated: {player} can no longer be taken off the tournament, only dropped out."
    ),
    "pin_range": gettext_noop("There is no table {table}."),
    "apart_same": gettext_noop("Choose two different players."),
    "apart_entry": gettext_noop("Both players must be registered for this tournament."),
    "round_range": gettext_noop("The tournament has {rounds} rounds."),
    "round_started": gettext_noop("Round {round} has started: its seating is locked."),
    "round_already_seated": gettext_noop(
        "Round {round} was just seated by someone else: its tables are shown below. Seat it again only if "
        "you mean to replace them."
    ),
    "round_not_confirmed": gettext_noop("Confirm the results of round {round} first."),
    "final_none": gettext_noop("This tournament has no final: choose one in the settings."),
    "final_done": gettext_noop("The final is played: there is no further stage."),
    "final_kind": gettext_noop("Choose a final from the list."),
    "final_counts": gettext_noop("Choose whether the final decides the top places or adds its points."),
    "final_knockout_family": gettext_noop(
        "A knockout is for two-player games: choose a final table instead."
    ),
    "final_knockout_size": gettext_noop("A knockout has 4 or 8 players."),
    "final_table_size": gettext_noop("A final table seats {minimum} to {maximum} players in this game."),
    "final_season": gettext_noop("Choose one of the club's seasons to seed the final from."),
    "final_too_few": gettext_noop("A final of {size} needs {size} players; only {players} can play it."),
    "freeze_rounds_range": gettext_noop("The tournament has {rounds} rounds: freeze at most that many."),
    "frozen_shows": gettext_noop("Choose what the players see while the standings are frozen."),
    "freeze_none": gettext_noop("The settings freeze no standings: there is nothing to freeze again."),
    "round_not_playing": gettext_noop("Round {round} is not being played: nothing to confirm."),
    "entry_not_seated": gettext_noop("{player} is not seated in this round."),
    "table_missing": gettext_noop("There is no table {table} in this round."),
    "table_full": gettext_noop("Table {table} is full ({maximum} players). Move someone off it first."),
    "table_too_small": gettext_noop(
        "Table {table} would have fewer than {minimum} players. Move someone onto it first."
    ),
    "table_not_playable": gettext_noop(
        "Table {table} cannot start with {players} players: move players first."
    ),
    "table_no_hands": gettext_noop(
        "Table {table} has not recorded a hand yet: record its hands before confirming."
    ),
    "stale_penalties": gettext_noop(
        "Someone changed the tournament meanwhile (a penalty or a setting). Check the list and try again."
    ),
    "penalty_kind": gettext_noop("Choose a warning or a point penalty."),
    "penalty_warning_points": gettext_noop("A warning takes no points: choose a point penalty to take some."),
    "penalty_points_range": gettext_noop(
        "A penalty takes more than 0 and at most {maximum} points, in hundredths at most."
    ),
    "penalty_reason": gettext_noop("Say why: the player reads the reason beside his penalty."),
    "penalty_reason_long": gettext_noop("Say why in at most {maximum} characters, on one line."),
    "penalty_entry": gettext_noop("Choose a player registered for this tournament."),
    "penalty_round": gettext_noop("There is no round {round} yet: choose a round that is seated."),
    "penalty_unknown": gettext_noop("There is no such penalty: reload the list."),
    "season_name": gettext_noop("Give the season a name."),
    "season_dates": gettext_noop("The last day must not be before the first."),
    "season_families": gettext_noop("Choose at least one game that counts."),
    "stale_season": gettext_noop(
        "Someone changed the season's settings meanwhile. Check them and save again."
    ),
    "idempotency_key_reused": gettext_noop(
        "This form was already sent for another change, so nothing was done. Reload the page and try again."
    ),
    "entry_link": gettext_noop("This is not your link: ask the organiser for yours."),
    "dispute_word": gettext_noop("Say in a word or two what is wrong with the totals."),
    "dispute_word_long": gettext_noop("Say it in at most {maximum} characters."),
    "table_confirm_off": gettext_noop("This tournament does not ask the tables to confirm their results."),
    "answer_no_table": gettext_noop("You are not at a table of a round being played."),
    "answer_playing": gettext_noop(
        "Table {table} is still playing: confirm its totals once it has finished."
    ),
    "answer_changed": gettext_noop(
        "The score sheet of table {table} changed while you looked: check the totals again."
    ),
    "tables_unconfirmed": gettext_noop(
        "Not every player has confirmed the result of tables {numbers}: confirm the round anyway?"
    ),
    "no_players": gettext_noop("Nobody is checked in for round {round}: check the players in first."),
}
