"""Tables that confirm their own result: what a player's answer is tied to, and what a table's
answers add up to. Shared by the services (which record an answer) and the selectors (which
show the tables' states), like ``tournament_data``.

An answer counts only while the table's sheet is the one it was given for: the sheet is named
by its hands and its totals in seat order (``sheet_tag``), so a hand added or corrected at the
table after a player confirmed leaves his confirmation standing as "changed since you
confirmed", not as a confirmation."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils.crypto import salted_hmac

from games.models import Result
from tournaments.models import Round, Table, TableAnswer, TableSeat, Tournament
from tournaments.tournament_data import TableState

ENTRY_LINK_SALT = "tournaments.entry-link"


def entry_key(tournament: Tournament, entry_id: int) -> str:
    """The secret of a player's own link: signed with the site's key for this tournament and
    entry, so it needs no stored row and cannot be made for another entry."""
    signed = salted_hmac(ENTRY_LINK_SALT, f"{tournament.public_id}:{entry_id}", algorithm="sha256")
    return signed.hexdigest()[:24]


def own_path(tournament: Tournament, entry_id: int) -> str:
    """The path of a player's own link (his tournament page, where he answers for his table)."""
    kwargs = {"public_id": tournament.public_id, "entry_id": entry_id, "key": entry_key(tournament, entry_id)}
    return reverse("tournaments:own", kwargs=kwargs)


def entry_key_matches(tournament: Tournament, entry_id: int, key: str) -> bool:
    return secrets.compare_digest(key.encode(), entry_key(tournament, entry_id).encode())


def current_seat(tournament: Tournament, entry_id: int) -> TableSeat | None:
    """The player's seat in the round being played (the latest, should two be), 1 query."""
    return (
        TableSeat.objects.filter(
            entry_id=entry_id,
            entry__tournament=tournament,
            table__round__status=Round.Status.PLAYING,
        )
        .select_related("table__round", "entry__player")
        .order_by("-table__round__number")
        .first()
    )


def sheet_tag(hands: int, totals: Sequence[int]) -> str:
    """The sheet an answer is given for: its hands and its totals in seat order."""
    return f"{hands}:" + ",".join(str(t) for t in totals)


@dataclass(frozen=True)
class TableSheet:
    finished: bool
    hands: int
    totals: tuple[int, ...]  # in seat order

    @property
    def tag(self) -> str:
        return sheet_tag(self.hands, self.totals)


def table_sheet(table: Table) -> TableSheet:
    """A table's sheet as its players see it (2 queries): finished, hands, totals by seat."""
    players = list(table.seats.order_by("position").values_list("entry__player_id", flat=True))
    if table.game_id is None:
        return TableSheet(False, 0, ())
    rows = {
        player: (total, finished, hands)
        for player, total, finished, hands in Result.objects.filter(game_id=table.game_id).values_list(
            "player_id", "total", "finished", "hands"
        )
    }
    found = [rows[p] for p in players if p in rows]
    if not found or len(found) != len(players):
        return TableSheet(False, 0, ())
    return TableSheet(all(r[1] for r in found), max(r[2] for r in found), tuple(r[0] for r in found))


CONFIRMED = "confirmed"
WAITING = "waiting"
DISPUTED = "disputed"


@dataclass(frozen=True)
class Agreement:
    """What a table's answers add up to for the sheet it has now."""

    state: str  # confirmed (every player), waiting or disputed
    agreed: int  # players whose confirmation counts
    players: int
    disputes: tuple[tuple[int, str], ...]  # (entry, word) of the disputes that count
    changed: tuple[int, ...]  # entries whose answer was for another sheet

    @property
    def waiting_for(self) -> int:
        return self.players - self.agreed

    @property
    def public(self) -> Agreement:
        """The same without the disputes' words (for those who do not run the tournament)."""
        return Agreement(self.state, self.agreed, self.players, (), self.changed)


def agreement(entries: Sequence[int], answers: Iterable[TableAnswer], tag: str) -> Agreement:
    """A table's state from its players' answers: an answer for another sheet than ``tag`` does
    not count; one dispute makes the table disputed."""
    by_entry: Mapping[int, TableAnswer] = {a.entry_id: a for a in answers}
    agreed = 0
    disputes: list[tuple[int, str]] = []
    changed: list[int] = []
    for entry in entries:
        answer = by_entry.get(entry)
        if answer is None:
            continue
        if answer.seen != tag:
            changed.append(entry)
        elif answer.disputed:
            disputes.append((entry, answer.word))
        else:
            agreed += 1
    if disputes:
        state = DISPUTED
    elif entries and agreed == len(entries):
        state = CONFIRMED
    else:
        state = WAITING
    return Agreement(state, agreed, len(entries), tuple(disputes), tuple(changed))


def round_agreements(played: Round, states: Sequence[TableState]) -> dict[int, Agreement]:
    """Each table's agreement (by table id) for the round's tables as read (1 query)."""
    answers: dict[int, list[TableAnswer]] = {}
    for answer in TableAnswer.objects.filter(table__round=played):
        answers.setdefault(answer.table_id, []).append(answer)
    return {
        t.table_id: agreement(t.entries, answers.get(t.table_id, []), sheet_tag(t.hands, t.totals))
        for t in states
    }
