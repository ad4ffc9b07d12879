"""The schema text of the tables' answers, and the parameters of a player's own link."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema

from games.api.common import IDEMPOTENCY_KEY, problems
from tournaments.api.table_answers_serializers import AnswerSerializer, OwnSerializer, RoundAnswersSerializer
from tournaments.api.tournament_schemas import NUMBER, PUBLIC_ID, TAGS

ENTRY = OpenApiParameter("entry", int, OpenApiParameter.PATH, description="The entry's id.")


KEY = OpenApiParameter("key", str, OpenApiParameter.PATH, description="The player's own link's key.")


tournament_own_table = extend_schema(
    operation_id="tournament_own_table",
    summary="A player's own link: his table's sheet in the round being played and his answer",
    tags=TAGS,
    auth=[],
    parameters=[PUBLIC_ID, ENTRY, KEY],
    responses={200: OwnSerializer, **problems(404)},
)


tournament_own_table_answer = extend_schema(
    operation_id="tournament_own_table_answer",
    summary="A player confirms his table's final totals, or disputes them with a word",
    description="Refused (400) when the tournament does not ask the tables (table_confirm_off), "
    "he sits at no table of a round being played (answer_no_table), the table still plays "
    "(answer_playing), the sheet is no longer the one seen (answer_changed) or a dispute has "
    "no word (dispute_word). His latest answer replaces the one before; each is recorded in "
    "the history.",
    tags=TAGS,
    auth=[],
    parameters=[PUBLIC_ID, ENTRY, KEY, IDEMPOTENCY_KEY],
    request=AnswerSerializer,
    responses={200: OwnSerializer, **problems(400, 404)},
)


tournament_round_answers = extend_schema(
    operation_id="tournament_round_answers",
    summary="Each table's answers to its result: confirmed, waiting or disputed (organisers)",
    description="With each player's own link, to send him. Empty tables when the tournament "
    "does not ask the tables (table_confirm) or the round has not started.",
    tags=TAGS,
    parameters=[PUBLIC_ID, NUMBER],
    responses={200: RoundAnswersSerializer, **problems(401, 403, 404)},
)
