"""A club's side of its federations, for its organisers: the invitations and memberships
(accept, decline, leave), and per federation its players' links (link, remove) and the claims
waiting for it (confirm, refuse). Every write under the object's If-Match, once per
Idempotency-Key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations.api import club_schemas as schemas
from federations.api.club_serializers import (
    ClubFederationsSerializer,
    ClubLinksSerializer,
    LinkRequestSerializer,
    MembershipSerializer,
    RatedTournamentSerializer,
    RateRequestSerializer,
    link_etag,
    membership_etag,
)
from federations.api.lookups import club_link, club_membership, replayed
from federations.models import FederationClub, PersonLink
from federations.selectors import links as selectors
from federations.services.events import tournament_rate
from federations.services.links import claim_answer, link_make, link_remove
from federations.services.memberships import club_answer, membership_end
from games.api.common import conditional_write, idempotency_key, with_etag
from games.api.lookups import visible_club
from games.services.errors import ServiceError, StaleVersion

STALE = {"stale_membership": "membership", "stale_person": "link"}


def _stale_as_412[T](call: Callable[[], T]) -> Callable[[], T]:
    """The services refuse a stale version with a coded error; the API answers it as any stale
    If-Match (412 with the object as stored now)."""

    def run() -> T:
        try:
            return call()
        except ServiceError as error:
            if error.code in STALE:
                raise StaleVersion(kind=STALE[error.code]) from None
            raise

    return run


def _membership_json(membership: FederationClub) -> Any:
    return MembershipSerializer(membership).data


def _links_json(membership: FederationClub) -> Any:
    side = selectors.club_side(club=membership.club, federation=membership.federation)
    if side is None:
        raise Http404
    return ClubLinksSerializer(side).data


class ClubFederations(APIView):
    @schemas.club_federations
    def get(self, request: Request, slug: str) -> Response:
        club, _role = visible_club(request, slug, manage=True)
        return Response(ClubFederationsSerializer(selectors.club_federations(club=club)).data)


class MembershipAnswer(APIView):
    answer = ""

    def post(self, request: Request, slug: str, fed: str) -> Response:
        membership = club_membership(request, slug, fed)
        key = idempotency_key(request)
        seen = membership.version
        if self.answer == "leave":
            target = f"end:{membership.pk}"

            def call() -> FederationClub:
                return membership_end(
                    membership=membership, by_club=True, version=seen, request_id=key, user=request.user
                )
        else:
            target = f"answer:{membership.pk}"
            accept = self.answer == "accept"

            def call() -> FederationClub:
                return club_answer(
                    membership=membership, accept=accept, version=seen, request_id=key, user=request.user
                )

        def current() -> tuple[str, Any]:
            now = selectors.stored_membership(pk=membership.pk) or membership
            return membership_etag(now), _membership_json(now)

        done = conditional_write(
            request,
            replayed=replayed(membership.federation, key, target),
            before=lambda: (membership_etag(membership), _membership_json(membership)),
            call=_stale_as_412(call),
            current=current,
        )
        return with_etag(_membership_json(done), membership_etag(done))


class MembershipAccept(MembershipAnswer):
    answer = "accept"

    @schemas.club_federation_accept
    def post(self, request: Request, slug: str, fed: str) -> Response:
        return super().post(request, slug, fed)


class MembershipDecline(MembershipAnswer):
    answer = "decline"

    @schemas.club_federation_decline
    def post(self, request: Request, slug: str, fed: str) -> Response:
        return super().post(request, slug, fed)


class MembershipLeave(MembershipAnswer):
    answer = "leave"

    @schemas.club_federation_leave
    def post(self, request: Request, slug: str, fed: str) -> Response:
        return super().post(request, slug, fed)


class ClubLinks(APIView):
    @schemas.club_federation_links
    def get(self, request: Request, slug: str, fed: str) -> Response:
        membership = club_membership(request, slug, fed, member=True)
        return Response(_links_json(membership))

    @schemas.club_federation_link
    def post(self, request: Request, slug: str, fed: str) -> Response:
        membership = club_membership(request, slug, fed, member=True)
        form = LinkRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        player = selectors.club_player(club=membership.club, pk=data["player"])
        if player is None:
            raise ServiceError(
                "link_player_other_club", "other club", field="player", player=str(data["player"])
            )
        link_make(
            federation=membership.federation,
            club=membership.club,
            player=player,
            person_id=data["person"],
            request_id=idempotency_key(request),
            user=request.user,
        )
        return Response(_links_json(membership), status=status.HTTP_201_CREATED)


def _link_write(
    request: Request,
    membership: FederationClub,
    pk: int,
    target: str,
    change: Callable[[PersonLink, int], object],
) -> None:
    """A change to one link under its If-Match; a resend of one made (the link may be gone
    since) changes nothing."""
    key = idempotency_key(request)
    if replayed(membership.federation, key, f"{target}:{pk}"):
        # The service finds the change the key made (the link may be gone since) and answers it.
        change(PersonLink(pk=pk, federation=membership.federation), 0)
        return
    link = club_link(membership, pk)
    seen = link.version

    def current() -> tuple[str, Any]:
        now = selectors.stored_link(pk=pk) or link
        return link_etag(now), _links_json(membership)

    conditional_write(
        request,
        replayed=False,
        before=lambda: (link_etag(link), _links_json(membership)),
        call=_stale_as_412(lambda: change(link, seen)),
        current=current,
    )


class LinkDetail(APIView):
    @schemas.club_federation_unlink
    def delete(self, request: Request, slug: str, fed: str, link: int) -> Response:
        membership = club_membership(request, slug, fed, member=True)
        key = idempotency_key(request)
        _link_write(
            request,
            membership,
            link,
            "unlink",
            lambda found, version: link_remove(
                link=found, version=version, request_id=key, user=request.user
            ),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClaimAnswer(APIView):
    confirm = True

    def post(self, request: Request, slug: str, fed: str, link: int) -> Response:
        membership = club_membership(request, slug, fed, member=True)
        key = idempotency_key(request)
        _link_write(
            request,
            membership,
            link,
            "answer-claim",
            lambda found, version: claim_answer(
                link=found, confirm=self.confirm, version=version, request_id=key, user=request.user
            ),
        )
        return Response(_links_json(membership))


class ClaimConfirm(ClaimAnswer):
    confirm = True

    @schemas.club_federation_claim_confirm
    def post(self, request: Request, slug: str, fed: str, link: int) -> Response:
        return super().post(request, slug, fed, link)


class ClaimRefuse(ClaimAnswer):
    confirm = False

    @schemas.club_federation_claim_refuse
    def post(self, request: Request, slug: str, fed: str, link: int) -> Response:
        return super().post(request, slug, fed, link)


class ClubTournaments(APIView):
    @schemas.club_federation_tournaments
    def get(self, request: Request, slug: str, fed: str) -> Response:
        membership = club_membership(request, slug, fed)
        rows = selectors.club_tournaments(club=membership.club, federation=membership.federation)
        return Response(RatedTournamentSerializer(rows, many=True).data)


class ClubTournamentRate(APIView):
    @schemas.club_federation_tournament_rate
    def post(self, request: Request, slug: str, fed: str, public_id: str) -> Response:
        membership = club_membership(request, slug, fed)
        tournament = selectors.club_tournament(club=membership.club, public_id=public_id)
        if tournament is None:
            raise Http404
        form = RateRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        rated = tournament_rate(
            federation=membership.federation,
            tournament=tournament,
            rated=form.validated_data["rated"],
            request_id=idempotency_key(request),
            user=request.user,
        )
        return Response(RatedTournamentSerializer(selectors.RatedRow(tournament, rated)).data)
