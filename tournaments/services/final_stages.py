"""The final after the rounds: a final table of the top players or a knockout, seated stage
by stage and taken back before it starts."""

from __future__ import annotations

import uuid

from games.services.errors import ServiceError
from scoring import finals
from scoring.errors import ScoringError
from scoring.families import family_info
from tournaments.models import Round, SeasonStanding, Tournament, TournamentChange
from tournaments.services.common import Actor, check_version
from tournaments.services.round_seating import player_names, write_seating
from tournaments.services.writes import record_change, round_target, write_once
from tournaments.tournament_data import (
    TournamentData,
    compute_standings,
    final_rounds,
    knockout_match,
    tournament_data,
)

Action = TournamentChange.Action


def final_size(tournament: Tournament) -> int:
    """How many play the final: the setting, else the family's usual table (a knockout: 4)."""
    if tournament.final == Tournament.Final.KNOCKOUT:
        return tournament.final_size or 4
    return tournament.final_size or family_info(tournament.family).table_preferred


def _final_order(data: TournamentData) -> list[int]:
    """Who may play the final, best first: the standings' players still in the tournament, or
    the season's qualifiers (in the season's order) who are registered here and still in."""
    tournament = data.tournament
    still_in = {e for e, entry in data.entries.items() if entry.dropped_after is None and entry.checked_in}
    if tournament.final_season_id is not None:
        season = tournament.final_season
        assert season is not None
        by_player = {entry.player_id: e for e, entry in data.entries.items()}
        line = SeasonStanding.objects.filter(season=season, family="", ranked=True)
        if season.qualify:
            line = line.filter(rank__lte=season.qualify)
        ids = line.order_by("rank", "player__key").values_list("player_id", flat=True)
        return [by_player[p] for p in ids if p in by_player and by_player[p] in still_in]
    return [s.player for s in compute_standings(data) if s.player in still_in]


def _final_tables(data: TournamentData, stage: int) -> list[list[int]]:
    """The tables of the final's ``stage`` (1: from the standings or the season; later: the
    winners of the stage before, in bracket order)."""
    tournament = data.tournament
    size = final_size(tournament)
    try:
        if tournament.final == Tournament.Final.TABLE:
            return [list(finals.qualifiers(_final_order(data), size))]
        if stage == 1:
            return [list(pair) for pair in finals.first_matches(_final_order(data), size)]
    except ScoringError as error:
        raise ServiceError(error.code, error.message, **error.params) from None
    before = final_rounds(data)[-1]
    order = {p: i for i, p in enumerate(_final_order(data))}
    winners = [knockout_match(order, t)[0] for t in data.tables_of(before.number)]
    return [list(pair) for pair in finals.next_matches(winners)]


# One target for every stage: a resend of "seat the final" comes back as the stage it seated.
FINAL_TARGET = "final:seat"


def final_seat(*, tournament: Tournament, user: Actor, request_id: uuid.UUID | None = None) -> Round:
    """Seat the final's next stage once the rounds (and the stage before) are confirmed: a
    final table of the top players, or a knockout's matches seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6
    and then its winners. The stage is a round like any other (links, QR codes, locked once
    confirmed), numbered after the tournament's rounds."""

    def write(locked: Tournament) -> Round:
        if locked.final == Tournament.Final.NONE:
            raise ServiceError("final_none", "the tournament has no final")
        data = tournament_data(locked)
        last = data.round(locked.rounds)
        if last is None or last.status != Round.Status.CONFIRMED:
            raise ServiceError("round_not_confirmed", "confirm the rounds first", round=locked.rounds)
        stages = final_rounds(data)
        if stages:
            if stages[-1].status != Round.Status.CONFIRMED:
                raise ServiceError("round_not_confirmed", "confirm the stage before", round=stages[-1].number)
            if locked.final == Tournament.Final.TABLE or len(data.tables_of(stages[-1].number)) == 1:
                raise ServiceError("final_done", "the final is played")
        stage = len(stages) + 1
        tables = _final_tables(data, stage)
        number = max(r.number for r in data.rounds) + 1
        seed = (locked.seed * 1_000_003 + number * 7_919) % 2**31
        played = Round.objects.create(
            tournament=locked, number=number, seed=seed, final_stage=stage, published=not locked.hide_seating
        )
        write_seating(played, tables, [])
        record_change(
            locked,
            Action.FINAL,
            user,
            request_id,
            target=FINAL_TARGET,
            round=number,
            stage=stage,
            tables=[player_names(data, t) for t in tables],
        )
        return played

    result = write_once(tournament, request_id, FINAL_TARGET, write)
    if isinstance(result, TournamentChange):
        return Round.objects.get(tournament=tournament, number=result.data["round"])
    return result


def final_undo(
    *, played: Round, round_version: int | None, user: Actor, request_id: uuid.UUID | None = None
) -> Tournament:
    """Take back a stage of the final not started yet (the standings and settings may have
    changed since it was seated); seating it again draws it from the standings as they are."""

    def write(locked: Tournament) -> Tournament:
        current = Round.objects.select_for_update(no_key=True).filter(pk=played.pk).first()
        if current is None or not current.final_stage:
            raise ServiceError("final_none", "not a stage of the final")
        if current.status != Round.Status.SEATED:
            raise ServiceError("round_started", "the round has started", round=current.number)
        check_version("round", current.version, round_version)
        data = tournament_data(locked)
        tables = [player_names(data, t.entries) for t in data.tables_of(current.number)]
        number, stage = current.number, current.final_stage
        current.delete()
        record_change(
            locked,
            Action.FINAL_UNDONE,
            user,
            request_id,
            target=target,
            round=number,
            stage=stage,
            tables=tables,
        )
        return locked

    target = round_target(played.number, "final-undo")
    write_once(played.tournament, request_id, target, write)
    tournament = played.tournament
    tournament.refresh_from_db()
    return tournament
