"""A person's side of a federation: his claim of his register entry (his players in the member
clubs and where each stands; the claim itself), and a register entry's page."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations.api import person_schemas as schemas
from federations.api.lookups import visible_federation
from federations.api.person_serializers import ClaimListSerializer, ClaimRequestSerializer, PersonSerializer
from federations.models import Federation
from federations.selectors.links import claim_rows
from federations.selectors.person import person_by_number, person_page
from federations.services.links import claim
from games.api.lookups import caller, refuse


def _claimant(request: Request, fed: str) -> tuple[Federation, User]:
    federation = visible_federation(request, fed)
    user = caller(request)
    if not isinstance(user, User):
        refuse(request, _("Log in to claim your register entry."))
    return federation, user


class Claim(APIView):
    @schemas.federation_claim_players
    def get(self, request: Request, fed: str) -> Response:
        federation, user = _claimant(request, fed)
        return Response(ClaimListSerializer(claim_rows(federation=federation, user=user)).data)

    @schemas.federation_claim
    def post(self, request: Request, fed: str) -> Response:
        federation, user = _claimant(request, fed)
        form = ClaimRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        claim(
            federation=federation,
            person_id=form.validated_data["person"],
            name=form.validated_data["name"],
            user=user,
        )
        return Response(ClaimListSerializer(claim_rows(federation=federation, user=user)).data)


class PersonDetail(APIView):
    @schemas.federation_person
    def get(self, request: Request, fed: str, number: int) -> Response:
        federation = visible_federation(request, fed)
        person = person_by_number(federation=federation, number=number)
        # A merged entry answers the one it was merged into (merges never make a cycle).
        while person is not None and person.merged_into is not None:
            person = person_by_number(federation=federation, number=person.merged_into.number)
        if person is None:
            raise Http404
        page = person_page(federation=federation, person=person, user=caller(request))
        return Response(PersonSerializer(page).data)
