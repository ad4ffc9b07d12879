"""Whether an outcome says how its hand ended (pure: no Django).

A family whose role may name nobody (Carousel: nobody knocked or went out, the stock ran out;
Rummikub: the pool ran dry) must still say so: a forgotten choice must not score as "nobody",
which can even end the game with its bonuses. So every such role is *stated* — a player, or
nobody on purpose — unless another role names a player: the roles exclude each other (one
player knocks or goes out), so the others are then nobody by the rules.

The hand form and the API ask the same question here; the scoring itself still reads an absent
role as nobody, so the hands stored before this rule score as they always did.
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.families import FamilyInfo


def unstated_roles(info: FamilyInfo, stated: Mapping[str, object]) -> list[str]:
    """The roles of ``info`` that ``stated`` (role -> player, or a false value for nobody; a
    role absent is not stated) leaves open, in form order; empty when the outcome says how
    the hand ended."""
    if any(stated.get(role) for role in info.roles):
        return []
    return [role for role in info.roles if role not in stated]
