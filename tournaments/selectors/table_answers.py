"""What a player's own link shows of his table's result, and what the organiser's round page
and API show of every table's answers (``Tournament.table_confirm``)."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Entry, TableAnswer, Tournament
from tournaments.table_answers import Agreement, TableSheet, agreement, current_seat, table_sheet


@dataclass(frozen=True)
class SheetSeat:
    entry_id: int
    name: str
    total: int | None
    word: str  # his dispute that counts, else ""


@dataclass(frozen=True)
class PlayerAnswer:
    """A player's table in the round being played, the sheet he is asked about, and his answer."""

    round: int
    final_stage: int
    table: int
    sheet: TableSheet
    seats: list[SheetSeat]
    mine: TableAnswer | None
    agreement: Agreement

    @property
    def finished(self) -> bool:
        return self.sheet.finished

    @property
    def tag(self) -> str:
        return self.sheet.tag

    @property
    def state(self) -> str:
        """His answer to the sheet as it is now: confirmed, disputed, changed (given for another
        sheet) or none."""
        if self.mine is None:
            return "none"
        if self.mine.seen != self.sheet.tag:
            return "changed"
        return "disputed" if self.mine.disputed else "confirmed"


def player_answer(*, tournament: Tournament, entry: Entry) -> PlayerAnswer | None:
    """His table of the round being played (None when he sits at none), read in a few queries."""
    seat = current_seat(tournament, entry.pk)
    if seat is None:
        return None
    table = seat.table
    sheet = table_sheet(table)
    seated = list(table.seats.order_by("position").select_related("entry__player"))
    answers = list(TableAnswer.objects.filter(table=table))
    agreed = agreement([s.entry_id for s in seated], answers, sheet.tag)
    words = dict(agreed.disputes)
    totals = sheet.totals
    seats = [
        SheetSeat(s.entry_id, s.entry.player.name, totals[i] if totals else None, words.get(s.entry_id, ""))
        for i, s in enumerate(seated)
    ]
    mine = next((a for a in answers if a.entry_id == entry.pk), None)
    return PlayerAnswer(
        round=table.round.number,
        final_stage=table.round.final_stage,
        table=table.number,
        sheet=sheet,
        seats=seats,
        mine=mine,
        agreement=agreed,
    )
