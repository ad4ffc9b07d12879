"""A tournament's history: its changes, with the corrections made at a table after its round
was confirmed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from games.models import Change
from tournaments.models import Round, Tournament, TournamentChange
from tournaments.tournament_data import hidden_rounds, tournament_rounds


@dataclass(frozen=True)
class HistoryItem:
    change: TournamentChange | None
    correction: Change | None  # a change at a table after its round was confirmed
    round: int | None = None
    table: int | None = None
    # A seating of a round not published yet, read by someone else than its organisers: its
    # tables are left out (the round's number stays).
    hidden: bool = False

    @property
    def _item(self) -> TournamentChange | Change:
        item = self.change or self.correction
        assert item is not None
        return item

    @property
    def created_at(self) -> object:
        return self._item.created_at

    @property
    def kind(self) -> str:
        return "change" if self.change is not None else "correction"

    @property
    def action(self) -> str:
        return self._item.action

    @property
    def title(self) -> str:
        """What happened, in the current language."""
        return str(self._item.get_action_display())

    @property
    def details(self) -> dict[str, object]:
        if self.change is not None and self.hidden:
            return {"round": self.round_number}
        if self.change is not None:
            return cast(dict[str, object], self.change.data)
        assert self.correction is not None
        return {"hand": self.correction.hand_number}

    @property
    def username(self) -> str | None:
        user = self._item.user
        return user.get_username() if user is not None else None

    @property
    def round_number(self) -> int | None:
        """The round it concerns: a correction's, or the one a change names."""
        if self.change is not None:
            data = self.change.data
            return data.get("round") if isinstance(data, dict) else None
        return self.round


# The changes that name who sits where in a round.
SEATING_ACTIONS = (
    TournamentChange.Action.SEATED,
    TournamentChange.Action.MOVED,
    TournamentChange.Action.FINAL,
)


def tournament_history(
    *, tournament: Tournament, limit: int = 200, organiser: bool = False
) -> list[HistoryItem]:
    """The tournament's changes, with every change made at a table after its round's results
    were confirmed (a correction that changed the standings), newest first (3 queries; 4
    for anyone but the organisers while seatings are published by hand: the seatings of the
    rounds not published yet are left out)."""
    hidden: set[int] = set()
    if not organiser and tournament.hide_seating:
        hidden = hidden_rounds(tournament, tournament_rounds(tournament))
    items = [
        HistoryItem(
            c,
            None,
            hidden=c.action in SEATING_ACTIONS and isinstance(c.data, dict) and c.data.get("round") in hidden,
        )
        for c in tournament.changes.select_related("user")[:limit]
    ]
    confirmed = {r.pk: r for r in Round.objects.filter(tournament=tournament, status=Round.Status.CONFIRMED)}
    if confirmed:
        late = (
            Change.objects.filter(game__tournament_table__round__in=list(confirmed))
            .select_related("game__tournament_table", "user")
            .order_by("-created_at", "-id")[:limit]
        )
        for change in late:
            table = change.game.tournament_table
            played = confirmed[table.round_id]
            if played.confirmed_at is not None and change.created_at > played.confirmed_at:
                items.append(HistoryItem(None, change, played.number, table.number))
    items.sort(key=lambda i: i.created_at, reverse=True)  # type: ignore[arg-type, return-value]
    return items[:limit]


@dataclass(frozen=True)
class TournamentHistory:
    items: list[HistoryItem]


def history_of(*, tournament: Tournament, organiser: bool = False) -> TournamentHistory:
    """``tournament_history`` as one object (4 queries at most)."""
    return TournamentHistory(tournament_history(tournament=tournament, organiser=organiser))
