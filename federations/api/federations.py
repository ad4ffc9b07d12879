"""Federations (list, create), a federation's page and settings (read, change), its organisers
(list, add, remove) and its clubs (the memberships, an invitation, the end of one). Whoever
sees a federation reads its page; its organisers do the rest."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_view
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations.api import federation_schemas as schemas
from federations.api.federation_serializers import (
    FederationClubsSerializer,
    FederationCreateSerializer,
    FederationInviteSerializer,
    FederationListSerializer,
    FederationMembershipSerializer,
    FederationOrganiserAddSerializer,
    FederationOrganiserSerializer,
    FederationSerializer,
    FederationSettingsPatchSerializer,
    federation_etag,
    membership_etag,
)
from federations.api.lookups import open_membership, replayed, stored_federation, visible_federation
from federations.models import Federation, FederationClub
from federations.selectors import federations as selectors
from federations.services.federations import (
    Settings,
    federation_create,
    federation_update,
    organiser_add,
    organiser_remove,
)
from federations.services.memberships import club_invite, find_club, membership_end
from games.api.common import CursorPage, conditional_write, idempotency_key, with_etag
from games.api.lookups import caller, refuse


def _page(request: Request, federation: Federation) -> Any:
    found = selectors.federation_page(federation=federation, user=caller(request))
    return FederationSerializer(found, context={"request": request}).data


class FederationPages(CursorPage):
    ordering = ("name", "pk")


@extend_schema_view(get=schemas.federations_list, post=schemas.federations_create)
class Federations(generics.ListAPIView[Federation]):
    """The federations the caller sees, by name (GET); a new one (POST), its creator its
    organiser."""

    serializer_class = FederationListSerializer
    pagination_class = FederationPages
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Federation]:
        return selectors.federation_list(user=caller(self.request))

    def post(self, request: Request) -> Response:
        user = caller(request)
        if not isinstance(user, User):
            refuse(request, _("Sign in to create a federation."))
        form = FederationCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        federation = federation_create(
            name=form.validated_data["name"],
            id_prefix=form.validated_data["id_prefix"],
            user=user,
            request_id=idempotency_key(request),
        )
        return with_etag(_page(request, federation), federation_etag(federation), status.HTTP_201_CREATED)


class FederationDetail(APIView):
    @schemas.federations_retrieve
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug)
        return with_etag(_page(request, federation), federation_etag(federation))

    @schemas.federations_partial_update
    def patch(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        key = idempotency_key(request)
        form = FederationSettingsPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        seen = federation.version

        def current() -> tuple[str, Any]:
            now = stored_federation(federation)
            return federation_etag(now), _page(request, now)

        updated = conditional_write(
            request,
            replayed=replayed(federation, key, "settings"),
            before=lambda: (federation_etag(federation), _page(request, federation)),
            call=lambda: federation_update(
                federation=federation,
                settings=Settings(**{**Settings.of(federation).__dict__, **form.validated_data}),
                version=seen,
                user=request.user,
                request_id=key,
            ),
            current=current,
        )
        return with_etag(_page(request, updated), federation_etag(updated))


def _organisers(federation: Federation) -> Any:
    return FederationOrganiserSerializer(selectors.organisers(federation=federation), many=True).data


class Organisers(APIView):
    @schemas.federation_organisers_list
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        return Response(_organisers(federation))

    @schemas.federation_organisers_add
    def post(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        form = FederationOrganiserAddSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        organiser_add(
            federation=federation,
            username=form.validated_data["username"],
            request_id=idempotency_key(request),
            user=request.user,
        )
        return Response(_organisers(federation), status=status.HTTP_201_CREATED)


class OrganiserDetail(APIView):
    @schemas.federation_organisers_remove
    def delete(self, request: Request, slug: str, username: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        key = idempotency_key(request)
        found = selectors.find_organiser(federation=federation, username=username)
        if found is None:
            account = selectors.account_id(username=username)
            if account is not None and replayed(federation, key, f"organiser-off:{account}"):
                return Response(status=status.HTTP_204_NO_CONTENT)
            raise Http404
        organiser_remove(federation=federation, organiser=found, request_id=key, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class Clubs(APIView):
    @schemas.federation_clubs_list
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        return Response(FederationClubsSerializer(selectors.clubs_page(federation=federation)).data)

    @schemas.federation_clubs_invite
    def post(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        form = FederationInviteSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        membership = club_invite(
            federation=federation,
            club=find_club(form.validated_data["club"]),
            counts_from=form.validated_data.get("counts_from"),
            request_id=idempotency_key(request),
            user=request.user,
        )
        body = FederationMembershipSerializer(membership).data
        return with_etag(body, membership_etag(membership), status.HTTP_201_CREATED)


class ClubEnd(APIView):
    @schemas.federation_club_end
    def post(self, request: Request, slug: str, club: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        key = idempotency_key(request)
        try:
            membership = open_membership(federation, club)
        except Http404:
            # A resend after the end went through: the membership it ended.
            done = selectors.membership_by_request(federation=federation, request_id=key) if key else None
            if done is None or done.club.slug != club:
                raise
            return with_etag(FederationMembershipSerializer(done).data, membership_etag(done))
        seen = membership.version

        def current() -> tuple[str, Any]:
            now = selectors.membership_by_id(federation=federation, pk=membership.pk)
            if now is None:
                raise Http404
            return membership_etag(now), FederationMembershipSerializer(now).data

        ended: FederationClub = conditional_write(
            request,
            replayed=replayed(federation, key, f"end:{membership.pk}"),
            before=lambda: (membership_etag(membership), FederationMembershipSerializer(membership).data),
            call=lambda: membership_end(
                membership=membership, by_club=False, version=seen, request_id=key, user=request.user
            ),
            current=current,
        )
        return with_etag(FederationMembershipSerializer(ended).data, membership_etag(ended))
