"""The schema text of a club's side of its federations."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema

from federations.api.club_serializers import (
    ClubFederationsSerializer,
    ClubLinksSerializer,
    LinkRequestSerializer,
    MembershipSerializer,
    RatedTournamentSerializer,
    RateRequestSerializer,
)
from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems

TAGS = ["federations"]
SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The club's slug.")
FED = OpenApiParameter("fed", str, OpenApiParameter.PATH, description="The federation's slug.")
LINK = OpenApiParameter("link", int, OpenApiParameter.PATH, description="The link's id.")


club_federations = extend_schema(
    operation_id="club_federations",
    summary="The club's federations: invitations waiting and memberships (its organisers)",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: ClubFederationsSerializer, **problems(401, 403, 404)},
)


def membership_answer(answer: str, summary: str, description: str) -> Any:
    return extend_schema(
        operation_id=f"club_federation_{answer}",
        summary=summary,
        description=description,
        tags=TAGS,
        parameters=[SLUG, FED, IF_MATCH, IDEMPOTENCY_KEY],
        request=None,
        responses={200: MembershipSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )


club_federation_accept = membership_answer(
    "accept",
    "Accept the federation's invitation (the club's organisers)",
    "If-Match names the invitation's ETag. The club's games count for the federation from the "
    "invitation's day (or today). An invitation answered meanwhile: 400 membership_gone.",
)
club_federation_decline = membership_answer(
    "decline",
    "Decline the federation's invitation (the club's organisers)",
    "If-Match names the invitation's ETag.",
)
club_federation_leave = membership_answer(
    "leave",
    "Leave the federation (the club's organisers); what the club played as a member still counts",
    "If-Match names the membership's ETag.",
)


club_federation_links = extend_schema(
    operation_id="club_federation_links",
    summary="The club's players linked in a federation, the claims waiting, the players not linked",
    tags=TAGS,
    parameters=[SLUG, FED],
    responses={200: ClubLinksSerializer, **problems(401, 403, 404)},
)


club_federation_link = extend_schema(
    operation_id="club_federation_link",
    summary="Link one of the club's players to the register entry of a federation id",
    description="Refused (400, at its field) for an unknown id (person_unknown), a player linked "
    "already or an entry linked to another of the club's players (link_player_taken, "
    "link_person_taken), a player of another club (link_player_other_club).",
    tags=TAGS,
    parameters=[SLUG, FED, IDEMPOTENCY_KEY],
    request=LinkRequestSerializer,
    responses={201: ClubLinksSerializer, **problems(400, 401, 403, 404)},
)


club_federation_unlink = extend_schema(
    operation_id="club_federation_unlink",
    summary="Remove a link (or a claim): the player's games no longer count for the entry",
    tags=TAGS,
    parameters=[SLUG, FED, LINK, IF_MATCH, IDEMPOTENCY_KEY],
    request=None,
    responses={204: None, **problems(400, 401, 403, 404, 412, 428)},
)


def claim_answer(answer: str, summary: str) -> Any:
    return extend_schema(
        operation_id=f"club_federation_claim_{answer}",
        summary=summary,
        description="If-Match names the claim's ETag. A claim answered meanwhile: 400 claim_not_waiting.",
        tags=TAGS,
        parameters=[SLUG, FED, LINK, IF_MATCH, IDEMPOTENCY_KEY],
        request=None,
        responses={200: ClubLinksSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )


club_federation_claim_confirm = claim_answer(
    "confirm", "Confirm a player's claim: the link counts, the entry is the claimant's account's"
)
club_federation_claim_refuse = claim_answer("refuse", "Refuse a player's claim: it is removed")


TOURNAMENT = OpenApiParameter(
    "public_id", str, OpenApiParameter.PATH, description="The tournament's public id."
)

club_federation_tournaments = extend_schema(
    operation_id="club_federation_tournaments",
    summary="The club's latest tournaments and whether each counts for the federation (its organisers)",
    description="For a federation that counts only the tournaments its clubs mark as federation-rated.",
    tags=TAGS,
    parameters=[SLUG, FED],
    responses={200: RatedTournamentSerializer(many=True), **problems(401, 403, 404)},
)
club_federation_tournament_rate = extend_schema(
    operation_id="club_federation_tournament_rate",
    summary="Mark one of the club's tournaments federation-rated, or take the mark back (its organisers)",
    description="The federation's list is re-rated from the tournament's first table. Marking needs the "
    "club to be a member; taking a mark back does not. Marking twice changes nothing.",
    tags=TAGS,
    parameters=[SLUG, FED, TOURNAMENT, IDEMPOTENCY_KEY],
    request=RateRequestSerializer,
    responses={200: RatedTournamentSerializer, **problems(400, 401, 403, 404, 422)},
)
