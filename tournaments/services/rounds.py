"""A seated round played: published to the players, started (every table gets its game and
the round's clock), confirmed (its results made final); and the frozen standings revealed."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from engine.errors import EngineError
from games.models import Game
from games.services.errors import ServiceError
from games.services.games import EventLabel, game_end, game_start
from tournaments import derived
from tournaments.models import Round, Table, Tournament, TournamentChange
from tournaments.services.common import Actor, check_version
from tournaments.services.round_seating import player_names
from tournaments.services.tournament_settings import check_minutes
from tournaments.services.writes import record_change, round_target, write_once
from tournaments.table_answers import CONFIRMED, round_agreements
from tournaments.tournament_data import round_states, tournament_data, tournament_seating

Action = TournamentChange.Action


def round_start(
    *,
    played: Round,
    round_version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
    minutes: int | None = None,
) -> Round:
    """Start a seated round: every table gets its game (the tournament's rules, its own edit
    link for the table's phone), and the seating is locked. The round's clock (``minutes``, else
    the tournament's minutes per round; 0: none) runs from now: its end is stored on the round
    and on every table's game, so each server and screen counts down to the same moment."""
    if minutes is not None:
        check_minutes(minutes, "minutes")

    def write(locked: Tournament) -> Round:
        current = Round.objects.select_for_update(no_key=True).get(pk=played.pk)
        if current.status != Round.Status.SEATED:
            raise ServiceError("round_started", "the round has started", round=current.number)
        check_version("round", current.version, round_version)
        data = tournament_data(locked)
        path = _event_path(locked)
        now = timezone.now()
        length = locked.round_minutes if minutes is None else minutes
        ends = now + timedelta(minutes=length) if length else None
        for table in Table.objects.filter(round=current).order_by("number"):
            ids = [s.entry_id for s in table.seats.order_by("position")]
            try:
                game = game_start(
                    family=locked.family,
                    options=locked.options,
                    players=player_names(data, ids),
                    owner=None,
                    club=locked.club,
                    hand_limit=locked.round_hands,
                    event=EventLabel(locked.name, current.number, table.number, path, ends),
                )
            except EngineError as error:
                raise ServiceError(
                    "table_not_playable", error.message, table=table.number, players=len(ids)
                ) from None
            table.game = game
            table.save(update_fields=["game"])
        # The players sit down as it starts: starting publishes the seating (the history says so).
        shown = {} if current.published else {"published": True}
        current.status = Round.Status.PLAYING
        current.published = True
        current.started_at = now
        current.ends_at = ends
        current.version += 1
        current.save()
        clock = {"minutes": length} if length else {}
        record_change(
            locked, Action.STARTED, user, request_id, target=target, round=current.number, **clock, **shown
        )
        return current

    target = round_target(played.number, "start")
    write_once(played.tournament, request_id, target, write)
    played.refresh_from_db()
    return played


def publish_target(number: int, published: bool) -> str:
    return round_target(number, "publish" if published else "unpublish")


def round_publish(
    *,
    played: Round,
    published: bool,
    round_version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Round:
    """Publish a round's seating to the players (its tables on the public pages, "where do I
    sit", the projector and the API), or hide it again before it starts (the organisers took
    it back to rearrange). Started rounds are always published."""

    def write(locked: Tournament) -> Round:
        current = Round.objects.select_for_update(no_key=True).get(pk=played.pk)
        if current.status != Round.Status.SEATED:
            raise ServiceError("round_started", "the round has started", round=current.number)
        check_version("round", current.version, round_version)
        if current.published == published:
            return current
        current.published = published
        current.version += 1
        current.save()
        action = Action.PUBLISHED if published else Action.UNPUBLISHED
        record_change(locked, action, user, request_id, target=target, round=current.number)
        return current

    target = publish_target(played.number, published)
    write_once(played.tournament, request_id, target, write)
    played.refresh_from_db()
    return played


def reveal_target(revealed: bool) -> str:
    return "standings:reveal" if revealed else "standings:freeze"


def standings_reveal(
    *,
    tournament: Tournament,
    revealed: bool,
    version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Tournament:
    """Reveal the frozen standings to the players (the live standings from now on), or freeze
    them again."""

    def write(locked: Tournament) -> Tournament:
        check_version("tournament", locked.version, version)
        if not revealed and not (locked.freeze_rounds or locked.freeze_final):
            raise ServiceError("freeze_none", "the settings freeze no standings")
        if locked.standings_revealed == revealed:
            return locked
        locked.standings_revealed = revealed
        locked.version += 1
        locked.save(update_fields=["standings_revealed", "version", "updated_at"])
        action = Action.REVEALED if revealed else Action.REFROZEN
        record_change(locked, action, user, request_id, target=reveal_target(revealed))
        return locked

    write_once(tournament, request_id, reveal_target(revealed), write)
    tournament.refresh_from_db()
    return tournament


def _event_path(tournament: Tournament) -> str:
    return reverse("tournaments:detail", kwargs={"public_id": tournament.public_id})


def unsettled_tables(tournament: Tournament, played: Round) -> list[dict[str, object]]:
    """The round's tables whose players have not all confirmed the result they have now (or
    one of them disputes it), when the tournament asks the tables; else none."""
    if not tournament.table_confirm:
        return []
    states = round_states(tournament, tournament_seating(tournament), played.number)
    found = round_agreements(played, states)
    unsettled: list[dict[str, object]] = []
    for table in states:
        agreed = found[table.table_id]
        if agreed.state != CONFIRMED:
            unsettled.append(
                {
                    "table": table.number,
                    "state": agreed.state,
                    "agreed": agreed.agreed,
                    "players": agreed.players,
                    "words": [word for _entry, word in agreed.disputes],
                }
            )
    return unsettled


def round_confirm(
    *,
    played: Round,
    round_version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
    unsettled_ok: bool = True,
) -> Round:
    """Make a round's results final: the tables still open are ended after their last hand
    (each recorded in its game's history, so it can be reopened there), and the next round can
    be seated. The tables' results are locked for their links (and the club's scorekeepers);
    a correction by an organiser afterwards changes the standings, and the tournament's
    history says so."""

    def write(locked: Tournament) -> Round:
        current = Round.objects.select_for_update(no_key=True).get(pk=played.pk)
        if current.status != Round.Status.PLAYING:
            raise ServiceError("round_not_playing", "the round is not being played", round=current.number)
        check_version("round", current.version, round_version)
        if not unsettled_ok:
            unsettled = unsettled_tables(locked, current)
            if unsettled:
                raise ServiceError(
                    "tables_unconfirmed",
                    "tables have not confirmed their results",
                    tables=unsettled,
                    numbers=", ".join(str(t["table"]) for t in unsettled),
                )
        closed = []
        for table in Table.objects.filter(round=current).select_related("game").order_by("number"):
            game = table.game
            if game is None:
                continue
            if not game.results.filter(finished=True).exists():
                if not game.hands.exists():
                    raise ServiceError("table_no_hands", "a table has no hand", table=table.number)
                game_end(game=game, ended=True, user=user)
                closed.append(table.number)
        # The tables' links write no more: only the organisers correct a confirmed result.
        tables_games = Game.objects.filter(tournament_table__round=current)
        tables_games.update(results_locked=True, updated_at=timezone.now())
        current.status = Round.Status.CONFIRMED
        current.confirmed_at = timezone.now()
        current.version += 1
        current.save()
        record_change(
            locked, Action.CONFIRMED, user, request_id, target=target, round=current.number, closed=closed
        )
        if current.number >= locked.rounds:
            # The tournament is over, or its final placed the players: the seasons that count
            # tournaments place them.
            derived.tournament_changed(locked)
        return current

    target = round_target(played.number, "confirm")
    write_once(played.tournament, request_id, target, write)
    played.refresh_from_db()
    return played
