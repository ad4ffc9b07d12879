"""The schema text of the user's home."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema

from games.api.common import problems
from tournaments.api.home_serializers import HomeSerializer

me_home = extend_schema(
    operation_id="me_home",
    summary="What is on now in my clubs (the home page)",
    description="Today's tournaments of the caller's clubs with his table and seat, the games in "
    "progress he may record, his clubs' current seasons with their top lines and his own, and his "
    "ratings with the last evening's change. A fixed number of queries, whatever the number of clubs.",
    tags=["account"],
    responses={200: HomeSerializer, **problems(401, 429)},
)
