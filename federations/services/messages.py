"""English templates of the federation services' error codes, registered with
``games.text.errors`` when the app loads."""

from __future__ import annotations

from django.utils.translation import gettext_noop

MESSAGES: dict[str, str] = {
    "federation_name_empty": gettext_noop("A federation needs a name."),
    "federation_name_too_long": gettext_noop("The name is too long (at most {maximum} characters)."),
    "federation_prefix": gettext_noop("The prefix is up to {maximum} capital letters or digits."),
    "federation_option_range": gettext_noop("Choose a number from {low} to {high}."),
    "bad_counts": gettext_noop("Choose what counts from the list."),
    "stale_federation": gettext_noop(
        "Someone changed the federation meanwhile. Check the page and save again."
    ),
    "organiser_unknown": gettext_noop("There is no account called {username}."),
    "organiser_last": gettext_noop("The federation needs at least one organiser."),
    "club_unknown": gettext_noop("There is no club at the address {club}."),
    "club_already_member": gettext_noop("{club} is a member already."),
    "club_already_invited": gettext_noop("{club} is invited already: its organisers can accept."),
    "membership_gone": gettext_noop(
        "This invitation or membership has ended meanwhile. Check the list and try again."
    ),
    "stale_membership": gettext_noop(
        "Someone changed this membership meanwhile. Check the list and try again."
    ),
    "counts_from_range": gettext_noop("Choose a day in the years {first} to {last}."),
    "person_unknown": gettext_noop("There is no entry {number} in the register."),
    "person_merged": gettext_noop("{person} was merged into another entry. Use that one."),
    "stale_person": gettext_noop("Someone changed this register entry meanwhile. Check it and try again."),
    "home_club_not_member": gettext_noop("A home club must be a member of the federation."),
    "merge_same": gettext_noop("Choose two different entries."),
    "merge_same_club": gettext_noop(
        "Both entries are linked to players of {club} ({first} and {second}). Merge those players in "
        "the club first, or remove one link."
    ),
    "nothing_to_undo": gettext_noop("This change cannot be undone."),
    "undo_later_change": gettext_noop("Something changed since: undo the later change first."),
    "link_not_member": gettext_noop("{club} is not a member of this federation."),
    "link_player_other_club": gettext_noop("{player} is not a player of this club."),
    "link_player_taken": gettext_noop("{player} is linked to {person} already. Remove that link first."),
    "link_person_taken": gettext_noop(
        "{person} is linked to {player} of this club already. A person is one player per club."
    ),
    "link_gone": gettext_noop("This link was removed meanwhile."),
    "claim_no_match": gettext_noop(
        "No register entry matches that id and name. Check them with your federation's organisers."
    ),
    "claim_no_players": gettext_noop(
        "You have no player in a member club of this federation. Ask your club's organiser to link "
        "your player to your account first."
    ),
    "claim_not_waiting": gettext_noop("This claim was answered meanwhile."),
    "tournament_other_club": gettext_noop("This tournament is not one of {club}'s."),
    "not_organiser": gettext_noop("Only the federation's organisers can do this."),
    "open_not_club_organiser": gettext_noop("Only the organisers of the tournament's club can do this."),
    "open_taken": gettext_noop("This tournament is an open of {federation} already."),
    "open_started": gettext_noop(
        "Round 1 of {tournament} is seated: it can no longer become an open or stop being one."
    ),
    "open_gone": gettext_noop("This tournament is no longer a federation open."),
    "open_not_allowed": gettext_noop(
        "You cannot enter this person. Players enter themselves, or their club's organiser enters them."
    ),
    "open_closed": gettext_noop("Entries are closed: round 1 is seated or the closing time has passed."),
    "open_already_entered": gettext_noop("{person} is entered already."),
    "open_not_entered": gettext_noop("{person} is not entered."),
    "open_name_taken": gettext_noop(
        "The host club has players called {person} already. Ask its organiser to link the right one."
    ),
    "grand_prix_points": gettext_noop("Choose how tournaments earn points from the list."),
    "grand_prix_option": gettext_noop("Choose a number from {low} to {high}."),
    "grand_prix_tiebreak_games": gettext_noop(
        "A federation season counts tournaments only: choose another tie-break than games played."
    ),
    "grand_prix_gone": gettext_noop("This season was deleted meanwhile."),
    "stale_grand_prix": gettext_noop(
        "Someone changed the season's settings meanwhile. Check them and save again."
    ),
}
