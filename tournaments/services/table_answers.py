"""A player's answer to his table's result, from his own phone (``Tournament.table_confirm``):
he confirms the final totals he was shown, or disputes them with a word. He has no account:
his own link's key (``table_answers.entry_key``) is the permission. Written as every tournament
write is: under the tournament's lock, once per request id, recorded in the history."""

from __future__ import annotations

import uuid

from games.services.errors import ServiceError
from games.text.names import has_control
from tournaments.models import Entry, TableAnswer, Tournament, TournamentChange
from tournaments.services.writes import entry_target, record_change, write_once
from tournaments.table_answers import current_seat, entry_key_matches, table_sheet

Action = TournamentChange.Action
MAX_WORD = 80


def answer_target(entry_id: int) -> str:
    return entry_target(entry_id, "answer")


def table_answer(
    *,
    tournament: Tournament,
    entry_id: int,
    key: str,
    disputed: bool,
    seen: str,
    word: str = "",
    request_id: uuid.UUID | None = None,
) -> TableAnswer:
    """Record a player's confirmation (or dispute) of his table's final totals as ``seen`` names
    them: refused when the sheet is no longer the one he saw, while the table still plays, and
    when the tournament does not ask for it. A dispute needs its word."""
    if not entry_key_matches(tournament, entry_id, key):
        raise ServiceError("entry_link", "not this player's link")
    word = " ".join(word.split())
    if disputed and not word:
        raise ServiceError("dispute_word", "a dispute needs a word", field="word")
    if len(word) > MAX_WORD or has_control(word):
        raise ServiceError("dispute_word_long", "the word is too long", field="word", maximum=MAX_WORD)

    def write(locked: Tournament) -> TableAnswer:
        if not locked.table_confirm:
            raise ServiceError("table_confirm_off", "the tournament does not ask the tables")
        seat = current_seat(locked, entry_id)
        if seat is None:
            raise ServiceError("answer_no_table", "not at a table of a round being played")
        table = seat.table
        sheet = table_sheet(table)
        if not sheet.finished:
            raise ServiceError("answer_playing", "the table is still playing", table=table.number)
        if sheet.tag != seen:
            raise ServiceError("answer_changed", "the score sheet changed", table=table.number)
        answer, _new = TableAnswer.objects.update_or_create(
            table=table,
            entry_id=entry_id,
            defaults={"disputed": disputed, "word": word if disputed else "", "seen": seen},
        )
        data: dict[str, object] = {
            "round": table.round.number,
            "table": table.number,
            "player": seat.entry.player.name,
            "totals": list(sheet.totals),
        }
        if disputed:
            data["word"] = word
        action = Action.RESULT_DISPUTED if disputed else Action.RESULT_AGREED
        record_change(locked, action, None, request_id, target=answer_target(entry_id), **data)
        return answer

    write_once(tournament, request_id, answer_target(entry_id), write)
    found = (
        TableAnswer.objects.filter(entry_id=entry_id).select_related("table").order_by("-answered_at").first()
    )
    if found is None:  # a resend of an answer whose table is gone (seated again): none stands
        raise ServiceError("answer_no_table", "not at a table of a round being played")
    return found


def entry_for_link(tournament: Tournament, entry_id: int, key: str) -> Entry | None:
    """The entry a player's own link names, None for a wrong key or another tournament's entry."""
    if not entry_key_matches(tournament, entry_id, key):
        return None
    return Entry.objects.filter(tournament=tournament, pk=entry_id).select_related("player").first()
