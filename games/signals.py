"""What the games app tells the apps built on it, without knowing them (they import this; it
imports none of them). Each is sent inside the transaction of the write; receivers must only
record what needs doing (in the same transaction) and defer slow work until after the commit.

``results_changed`` is sent by every write that rewrote a club game's results (a hand
recorded, corrected or deleted, the game ended or reopened), with ``game`` and ``finished``
(whether the game is now finished).

``game_dated`` is sent when a club game's date of play changed (its change or the undo of
that), with ``game``, ``before`` and ``after`` (the two moments) and ``finished``.

``seats_moved`` is sent when seats of club games moved from one player to another (a merge of
two players and its undo), with ``club_id`` and ``game_ids``.
"""

from __future__ import annotations

from django.dispatch import Signal

results_changed = Signal()
game_dated = Signal()
seats_moved = Signal()
