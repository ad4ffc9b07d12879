"""What the API's schema says of the games resources (games/api/games.py): each operation's
summary, description, parameters, examples and answers, one ``extend_schema`` per operation
named by its operation id; the views wear them as decorators."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems
from games.api.game_serializers import (
    GameChangeSerializer,
    GameCreatedSerializer,
    GameCreateSerializer,
    GameDateSerializer,
    GameHandSerializer,
    GameItemSerializer,
    GameSerializer,
    GameTransferSerializer,
)
from scoring.families import families

GAME_EXAMPLE: dict[str, Any] = {
    "public_id": "k3F9xQ2m",
    "family": "zoliky",
    "club": None,
    "played_at": "2026-11-27T19:02:11Z",
    "created_at": "2026-11-27T19:02:11Z",
    "updated_at": "2026-11-27T19:20:45Z",
    "ended": False,
    "finished": False,
    "hands": 1,
    "players": [
        {"name": "Ann", "total": -10, "place": 1, "winner": False},
        {"name": "Bob", "total": 23, "place": 2, "winner": False},
        {"name": "Cid", "total": 30, "place": 3, "winner": False},
    ],
    "options": {},
    "first_dealer": 0,
    "hand_limit": 0,
    "seats": [
        {"position": 0, "name": "Ann", "player_id": 1},
        {"position": 1, "name": "Bob", "player_id": 2},
        {"position": 2, "name": "Cid", "player_id": 3},
    ],
    "rows": [
        {
            "number": 1,
            "ordinal": 1,
            "version": 1,
            "outcome": {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}},
            "dealer": "Ann",
            "points": {"Ann": -10, "Bob": 23, "Cid": 30},
            "totals": {"Ann": -10, "Bob": 23, "Cid": 30},
            "missing": [],
            "created_at": "2026-11-27T19:20:45Z",
            "updated_at": "2026-11-27T19:20:45Z",
        }
    ],
    "totals": {"Ann": -10, "Bob": 23, "Cid": 30},
    "eliminated": [],
    "finish_reason": None,
    "leaders": ["Ann"],
    "winners": [],
    "bonuses": [],
    "incomplete": False,
    "missing": [],
    "next_dealer": "Bob",
    "settlement": None,
}


END_SCHEMA: dict[str, Any] = {
    "request": None,
    "parameters": [IDEMPOTENCY_KEY],
    "responses": {200: GameSerializer, **problems(400, 401, 403, 404)},
}


NOTATION_HELP = (
    "An optional `notation` member next to the outcome names the letters its cards are typed in: "
    "`en` (the default: `KH 5S JK`), `cs`, `sk`, `pl` or `nb`, as the site's pages of that language read "
    'them (Czech `KS` is the king of hearts; docs/RULES.md, "Cards as each language writes them"). The '
    "card symbols read the same in all of them. The hand is recorded in the English codes."
)


# Each family's example outcomes (scoring.families), in the registry's order.
OUTCOME_EXAMPLES = [
    OpenApiExample(title, value=dict(value), request_only=True)
    for fam in families()
    for title, value in fam.api_examples
]


games_list = extend_schema(
    operation_id="games_list",
    summary="The games you may see",
    description="Club games of the clubs you see (public clubs, or yours), your private games, and "
    "the game whose edit link you bear. Newest first by `played_at` (then by id), by cursor.",
    responses={200: GameItemSerializer(many=True), **problems(400)},
)


games_create = extend_schema(
    operation_id="games_create",
    summary="Start a game",
    description="Starts a game, private or (with `club`) in a club where you are a scorekeeper or an "
    "organiser. The answer carries the game's `edit_url` (share it to let others record). "
    "Starting a game is **not idempotent**: a resend starts a second game (an Idempotency-Key "
    "is not honoured here).",
    request=GameCreateSerializer,
    responses={201: GameCreatedSerializer, **problems(400, 401, 403)},
    examples=[
        OpenApiExample(
            "Žolíky for three",
            value={
                "family": "zoliky",
                "options": {},
                "players": ["Ann", "Bob", "Cid"],
                "first_dealer": 0,
            },
            request_only=True,
        ),
        OpenApiExample(
            "Žolíky for four with a house rule",
            summary="Four players, a joker left in hand costs 30",
            value={
                "family": "zoliky",
                "options": {"joker_penalty": 30},
                "players": ["Ann", "Bob", "Cid", "Dan"],
                "first_dealer": 1,
            },
            request_only=True,
        ),
    ],
)


games_retrieve = extend_schema(
    operation_id="games_retrieve",
    summary="A game and its score sheet",
    description="Anyone with the game's address reads it. The ETag changes with every write; send it as "
    "If-None-Match to get 304 while nothing changed.",
    responses={200: GameSerializer, 304: OpenApiResponse(description="Not modified."), **problems(404)},
    examples=[
        OpenApiExample(
            "A short sheet",
            summary="Žolíky for three after one hand",
            value=GAME_EXAMPLE,
            response_only=True,
            status_codes=["200"],
        )
    ],
)


games_destroy = extend_schema(
    operation_id="games_destroy",
    summary="Delete a club's game",
    description="For the club's organisers. The game leaves every list, standing, rating and season and "
    "answers 404 to everyone else; its record is kept. The answer is the deletion, a change in the "
    "game's history: undo it (`POST .../history/{id}/undo/`) to bring the game back. A tournament's "
    "table is refused (400 `event_game`), as is a private game (400 `not_club_game`). With an "
    "Idempotency-Key a resend answers with the first deletion.",
    request=None,
    parameters=[IDEMPOTENCY_KEY],
    responses={200: GameChangeSerializer, **problems(400, 401, 403, 404)},
)


games_end = extend_schema(operation_id="games_end", summary="End the evening", **END_SCHEMA)


games_reopen = extend_schema(operation_id="games_reopen", summary="Reopen an ended game", **END_SCHEMA)


games_hands_list = extend_schema(
    operation_id="games_hands_list",
    summary="The game's hands, in score-sheet order",
    responses={200: GameHandSerializer(many=True), **problems(404)},
)


games_hands_create = extend_schema(
    operation_id="games_hands_create",
    summary="Record the next hand",
    description="The body is the hand's scoring outcome, keyed by the players' names, as the hand form "
    "builds it (one shape per family; see the examples and /engine/). It says how the hand ended: a "
    "role that may name nobody (Carousel's `knocker` and `out`, Rummikub's `winner`) is given, `null` "
    "for nobody, unless another role names a player; left out, it is refused (400 `missing_field`). "
    "With an Idempotency-Key a resend records nothing again and answers 200 with the hand recorded "
    "the first time. An optional "
    "`for_hand` member next to the outcome is the game's `next_hand_number` when the client drew its "
    "form: if another client recorded a hand since, nothing is recorded and the answer is 409 "
    "`hand_taken`, naming that hand (`hand`: its row on the sheet, `number`) with it in `current` and "
    "its `etag` (replace it with a PUT and If-Match, or post again with `for_hand` set to "
    "`next_hand_number`). " + NOTATION_HELP,
    request=OpenApiTypes.OBJECT,
    parameters=[IDEMPOTENCY_KEY],
    examples=OUTCOME_EXAMPLES,
    responses={
        201: GameHandSerializer,
        200: OpenApiResponse(GameHandSerializer, description="A resend: the hand recorded the first time."),
        **problems(400, 401, 403, 404, 409),
    },
)


games_hands_retrieve = extend_schema(
    operation_id="games_hands_retrieve",
    summary="One hand",
    responses={200: GameHandSerializer, **problems(404)},
)


games_hands_update = extend_schema(
    operation_id="games_hands_update",
    summary="Correct a hand",
    description="The body is the corrected outcome. Needs If-Match with the hand's ETag: a stale one "
    "gets 412 with the hand as stored now in `current`. " + NOTATION_HELP,
    request=OpenApiTypes.OBJECT,
    parameters=[IF_MATCH],
    examples=OUTCOME_EXAMPLES,
    responses={200: GameHandSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


games_hands_destroy = extend_schema(
    operation_id="games_hands_destroy",
    summary="Delete a hand",
    description="Needs If-Match with the hand's ETag. The deletion can be undone in the history.",
    request=None,
    parameters=[IF_MATCH],
    responses={204: OpenApiResponse(description="Deleted."), **problems(400, 401, 403, 404, 412, 428)},
)


games_history_list = extend_schema(
    operation_id="games_history_list",
    summary="The game's changes, newest first",
    responses={200: GameChangeSerializer(many=True), **problems(404)},
)


games_history_undo = extend_schema(
    operation_id="games_history_undo",
    summary="Undo a change",
    description="The undo is itself a change (returned). Not keyed by Idempotency-Key: a resend "
    "answers 400 `already_undone` and changes nothing. A new starter or a deletion (`transfer`, "
    "`removed`, `restored`) is undone by the club's organisers only; undoing `removed` brings a "
    "deleted game back (the one write a deleted game takes).",
    request=None,
    responses={201: GameChangeSerializer, **problems(400, 401, 403, 404)},
)


games_transfer = extend_schema(
    operation_id="games_transfer",
    summary="Give a club's game another starter",
    description="For the club's organisers. The new starter must be a scorekeeper or organiser of the "
    "club (400 `starter_not_recorder`); like every starter of a club's game he records it while he "
    "is one. The answer is the change in the game's history (undo gives the game back). With an "
    "Idempotency-Key a resend answers with the first change.",
    request=GameTransferSerializer,
    parameters=[IDEMPOTENCY_KEY],
    responses={201: GameChangeSerializer, **problems(400, 401, 403, 404)},
)


games_date = extend_schema(
    operation_id="games_date",
    summary="Change when a game was played",
    description="For whoever records the game (a club's scorekeepers and organisers). A club game's "
    "ratings and seasons follow the new date. The answer is the change in the game's history (undo "
    "puts the old date back); 200 with no body change when the date is already this one. A "
    "tournament's table is refused (400 `event_game_dated`). With an Idempotency-Key a resend "
    "answers with the first change.",
    request=GameDateSerializer,
    parameters=[IDEMPOTENCY_KEY],
    responses={201: GameChangeSerializer, 200: GameSerializer, **problems(400, 401, 403, 404)},
)


games_rematch = extend_schema(
    operation_id="games_rematch",
    summary="Start a rematch",
    description="Starts the next game at the same table: the same players, family, house rules and "
    "hand limit, in the same club, the first dealer the seat after the old game's first dealer. "
    "Allowed to whoever could start the game anew: a club's scorekeepers and organisers, a "
    "private game's owner, or (for a game started without an account) the browser session "
    "holding its edit link; not to a bearer of the edit link. With an Idempotency-Key, a "
    "resend answers with the game the first request started.",
    request=None,
    parameters=[IDEMPOTENCY_KEY],
    responses={201: GameCreatedSerializer, **problems(400, 401, 403, 404)},
)
