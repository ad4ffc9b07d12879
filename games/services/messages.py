"""English templates of every error code the game services raise (``games.services.errors``).

Same shape as ``engine.messages`` and ``scoring.messages``: ``MESSAGES[code]`` is a ``str.format``
template over the error's params, marked for extraction and translated by ``games.text.errors``.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

MESSAGES: dict[str, str] = {
    "stale_edit": gettext_noop(
        "Someone else saved hand {hand} while you were editing it. Its current values are shown below; "
        "change them again if needed."
    ),
    "hand_gone": gettext_noop("Hand {hand} was deleted meanwhile."),
    "hand_taken": gettext_noop("Hand {hand} was just recorded on another phone."),
    "hand_ends_game": gettext_noop("This hand ends the game."),
    "already_undone": gettext_noop("This change was already undone."),
    "changed_since": gettext_noop("This was changed again afterwards; undo the later change first."),
    "not_undoable": gettext_noop(
        "A new edit link cannot be undone: the old link stays ended. Make another link if needed."
    ),
    "points_out_of_range": gettext_noop(
        "Hand {hand}: {player} cannot score {points} points in one hand (at most {maximum}); check the count."
    ),
    "resent_deleted": gettext_noop(
        "This hand was recorded already and has been deleted since, so it was not recorded again. "
        "To bring it back, undo the deletion in the history."
    ),
    "version_required": gettext_noop(
        "This form did not say which version of the hand it changes, so nothing was saved. "
        "Reload the page and try again."
    ),
    "form_damaged": gettext_noop(
        "Part of the form was damaged on its way (a hidden field). Nothing was saved: reload the page and "
        "try again."
    ),
    "game_ended": gettext_noop("The game was ended; reopen it to record more hands."),
    "played_in_future": gettext_noop("A game cannot be played in the future: choose a time before now."),
    "event_game_dated": gettext_noop(
        "This game is a table of a tournament: it was played on the tournament's date."
    ),
    "date_changed_since": gettext_noop(
        "Someone changed the game's date while you were changing it: it is now {current}. Check it and "
        "save again if needed."
    ),
    "evening_already": gettext_noop("That game is in this evening already."),
    "evening_other_players": gettext_noop(
        "Only a game of the same game and the same players can be settled in this evening."
    ),
    "evening_event": gettext_noop("A tournament's table is settled by the tournament, not in an evening."),
    "evening_taken": gettext_noop("That game is in another evening already: take it out there first."),
    "evening_not_put": gettext_noop(
        "That game was not put in this evening (a rematch stays in its evening)."
    ),
    "game_deleted": gettext_noop("This game was deleted. An organiser of its club can bring it back."),
    "not_club_game": gettext_noop(
        "Only a club's game can be given to another starter or deleted by organisers."
    ),
    "starter_not_recorder": gettext_noop(
        "The game can only be given to a scorekeeper or organiser of its club."
    ),
    "already_starter": gettext_noop("This person started the game already."),
    "event_game": gettext_noop(
        "This game is a table of a tournament: it is changed in the tournament, not deleted here."
    ),
    "count_required": gettext_noop(
        "Hand {hand}: enter the count of {player}. A count can be left missing only in a hand recorded "
        "while {player} was out."
    ),
    "count_not_missing": gettext_noop("Hand {hand}: the count of {player} is not missing (any more)."),
    "follows_change": gettext_noop(
        "This change followed from a change to an earlier hand (a player came back or dropped out): "
        "undo that change instead, or fill in the missing count."
    ),
    "name_too_long": gettext_noop("The name {player} is too long (at most {maximum} characters)."),
    "name_empty": gettext_noop("Enter a name."),
    "name_control": gettext_noop("A name cannot contain control characters."),
    "name_taken": gettext_noop("{player} is already a player here. To make them one, merge the two players."),
    "stale_player": gettext_noop("Someone changed {player} meanwhile. Check the page and try again."),
    "player_merged": gettext_noop("{player} was merged into another player meanwhile."),
    "merge_other_club": gettext_noop("Only two players of the same club can be merged."),
    "merge_self": gettext_noop("Choose two different players to merge."),
    "merge_same_game": gettext_noop(
        "{player} and {other} played in the same game, so they are two people and cannot be merged."
    ),
    "merge_both_claimed": gettext_noop(
        "{player} and {other} are claimed by two different accounts; one of them must let go first."
    ),
    "claim_not_club": gettext_noop("Only a club's players can be claimed."),
    "claimed_by_other": gettext_noop("{player} is already claimed by another account."),
    "claimed_other_player": gettext_noop("You are already {player} in this club."),
    "club_name_empty": gettext_noop("Enter the club's name."),
    "club_name_too_long": gettext_noop("The club's name is too long (at most {maximum} characters)."),
    "slug_taken": gettext_noop("This address is taken by another club."),
    "slug_invalid": gettext_noop("The address needs letters or digits (a–z, 0–9, -)."),
    "bad_visibility": gettext_noop("Choose who sees the club."),
    "club_option_range": gettext_noop("Enter a whole number from {low} to {high}."),
    "stale_club": gettext_noop("Someone changed the club's settings meanwhile. Check them and save again."),
    "invite_invalid": gettext_noop(
        "This invite link is not valid any more. Ask the organiser for a new one."
    ),
    "bad_role": gettext_noop("Choose a role."),
    "member_gone": gettext_noop("This member has left the club."),
    "stale_member": gettext_noop("Someone changed {member}'s role meanwhile. Check the page and try again."),
    "club_changed_since": gettext_noop("This was changed again afterwards; undo the later change first."),
    "token_name": gettext_noop("Give the token a name."),
    "token_limit": gettext_noop("You have {maximum} tokens: revoke one first."),
    "reset_not_allowed": gettext_noop(
        "This account also belongs to a club you do not run, or is a site administrator's: "
        "ask the site's administrator for its reset link."
    ),
    "reset_link_limit": gettext_noop("You made many reset links within the hour: try again later."),
    "reset_link_invalid": gettext_noop(
        "This reset link does not work any more (used, replaced or expired): ask for a new one."
    ),
    "email_taken": gettext_noop("Another account has this e-mail address."),
    "session_unknown": gettext_noop("There is no such session (it may have ended already)."),
    "session_current": gettext_noop("This is the session you are using: log out instead."),
    "last_organiser": gettext_noop("The club needs an organiser: make someone else an organiser first."),
}
