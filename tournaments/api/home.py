"""``GET me/home/``: what the signed-in person's home page shows, its serializer over
``tournaments.selectors.home``'s answer: today's tournaments of his clubs with where he sits,
the games in progress he may record, his clubs' current seasons (top lines and his own) and his
ratings with their trend. Signed-in callers only (a session or an API token)."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.auth import TokenScope
from tournaments.api import home_schemas as schemas
from tournaments.api.home_serializers import HomeSerializer
from tournaments.selectors.home import home_of


class MyHome(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @schemas.me_home
    def get(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)  # IsAuthenticated
        return Response(HomeSerializer(home_of(user=user), context={"request": request}).data)
