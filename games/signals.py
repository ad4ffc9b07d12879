"""What the games app tells the apps built on it, without knowing them (they import this; it
imports none of them).

``results_changed`` is sent inside the transaction of every write that rewrote a club game's
results (a hand recorded, corrected or deleted, the game ended or reopened), with ``game`` and
``finished`` (whether the game is now finished). Receivers must only record what needs doing
(in the same transaction) and defer slow work until after the commit.
"""

from __future__ import annotations

from django.dispatch import Signal

results_changed = Signal()
