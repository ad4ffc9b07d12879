"""A club's list of one kind (its tournaments, its seasons): read by whoever sees the club,
newest first, and added to by its organisers, the new one answered with its ETag."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.common import with_etag
from games.api.lookups import visible_club
from games.models import Club


# No docstring: drf-spectacular would describe the subclasses' operations with it.
class ClubList[M: Model](generics.ListAPIView[M]):
    filter_backends: list[Any] = []

    def rows(self, club: Club) -> QuerySet[M]:
        raise NotImplementedError

    def create(self, request: Request, club: Club) -> tuple[Any, str]:
        """Make the new one from the request: its body and its ETag."""
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[M]:
        club, _role = visible_club(self.request, self.kwargs["slug"])
        return self.rows(club)

    def post(self, request: Request, slug: str) -> Response:
        club, _role = visible_club(request, slug, manage=True)
        body, tag = self.create(request, club)
        return with_etag(body, tag, status.HTTP_201_CREATED)
