"""The federation's register: its entries (searched by name or federation id, a page at a
time) for whoever sees the federation; for its organisers, a new entry, an entry's edit and a
merge of two entries (undone through the history)."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations.api import register_schemas as schemas
from federations.api.lookups import entry, page_query, replayed, visible_federation
from federations.api.register_serializers import (
    RegisterEntryPatchSerializer,
    RegisterEntrySerializer,
    RegisterEntryWriteSerializer,
    RegisterMergeResultSerializer,
    RegisterMergeSerializer,
    RegisterSerializer,
    person_etag,
)
from federations.models import Federation
from federations.selectors import federations as federation_selectors
from federations.selectors import register as selectors
from federations.selectors.register import RegisterRow
from federations.services.register import find_person, person_add, person_edit, person_merge
from games.api.common import conditional_write, guarded, idempotency_key, with_etag
from games.models import Club
from games.services.errors import ServiceError


def _home_club(federation: Federation, slug: str | None) -> Club | None:
    """A member club named by its slug, None for none; any other is refused at the field."""
    if slug is None:
        return None
    for club in federation_selectors.home_club_choices(federation=federation):
        if club.slug == slug:
            return club
    raise ServiceError("home_club_not_member", "not a member", field="home_club")


def _entry_json(row: RegisterRow) -> Any:
    return RegisterEntrySerializer(row).data


class Register(APIView):
    @schemas.federation_register_list
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug)
        query = request.query_params.get("q", "").replace("\x00", "")
        page = selectors.register_page(federation=federation, query=query, page=page_query(request))
        return Response(RegisterSerializer(page).data)

    @schemas.federation_register_add
    def post(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        form = RegisterEntryWriteSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        person = person_add(
            federation=federation,
            name=form.validated_data["name"],
            home_club=_home_club(federation, form.validated_data["home_club"]),
            request_id=idempotency_key(request),
            user=request.user,
        )
        row = entry(federation, person.number)
        return with_etag(_entry_json(row), person_etag(row.person), status.HTTP_201_CREATED)


class RegisterEntry(APIView):
    @schemas.federation_register_retrieve
    def get(self, request: Request, slug: str, number: int) -> Response:
        row = entry(visible_federation(request, slug), number)
        return with_etag(_entry_json(row), person_etag(row.person))

    @schemas.federation_register_partial_update
    def patch(self, request: Request, slug: str, number: int) -> Response:
        federation = visible_federation(request, slug, manage=True)
        row = entry(federation, number)
        key = idempotency_key(request)
        form = RegisterEntryPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data, person = form.validated_data, row.person
        home = _home_club(federation, data["home_club"]) if "home_club" in data else person.home_club
        seen = person.version

        def current() -> tuple[str, Any]:
            now = entry(federation, number)
            return person_etag(now.person), _entry_json(now)

        conditional_write(
            request,
            replayed=replayed(federation, key, f"person:{person.pk}:edit"),
            before=lambda: (person_etag(person), _entry_json(row)),
            call=lambda: person_edit(
                person=person,
                name=data.get("name", person.name),
                home_club=home,
                version=seen,
                request_id=key,
                user=request.user,
            ),
            current=current,
        )
        now = entry(federation, number)
        return with_etag(_entry_json(now), person_etag(now.person))


class Merges(APIView):
    @schemas.federation_register_merge
    def post(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        form = RegisterMergeSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        source, into = find_person(federation, data["source"]), find_person(federation, data["into"])

        def current() -> tuple[str, Any]:
            now = entry(federation, source.number)
            body = {"source": _entry_json(now), "into": _entry_json(entry(federation, into.number))}
            return person_etag(now.person), body

        change = guarded(
            lambda: person_merge(
                source=source,
                into=into,
                versions=(data["source_version"], data["into_version"]),
                request_id=idempotency_key(request),
                user=request.user,
            ),
            current,
        )
        result = {
            "change": change,
            "source": entry(federation, source.number),
            "into": entry(federation, into.number),
        }
        return Response(RegisterMergeResultSerializer(result).data, status=status.HTTP_201_CREATED)
