"""What the tournaments app tells the apps built on it, without knowing them (they import this;
it imports none of them). Sent inside the transaction of the write; receivers must only record
what needs doing (in the same transaction) and defer slow work until after the commit.

``tournament_changed`` is sent whenever a tournament's final places may have moved without its
tables' results changing (its last round confirmed, a penalty, a final stage, its settings),
with ``tournament`` and ``before`` (the tournament as it was before a settings change, else
None), as ``tournaments.derived.tournament_changed`` marks the club's seasons.
"""

from __future__ import annotations

from django.dispatch import Signal

tournament_changed = Signal()
