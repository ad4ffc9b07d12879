"""The routes of the federations app's API."""

from __future__ import annotations

from django.urls import path

from federations.api.clubs import (
    ClaimConfirm,
    ClaimRefuse,
    ClubFederations,
    ClubLinks,
    ClubTournamentRate,
    ClubTournaments,
    LinkDetail,
    MembershipAccept,
    MembershipDecline,
    MembershipLeave,
)
from federations.api.people import Claim, PersonDetail

CLUB = "clubs/<slug:slug>/federations/"
FED = CLUB + "<slug:fed>/"
LINK = FED + "links/<int:link>/"

urlpatterns: list = [
    path(CLUB, ClubFederations.as_view(), name="club-federations"),
    path(f"{FED}accept/", MembershipAccept.as_view(), name="club-federation-accept"),
    path(f"{FED}decline/", MembershipDecline.as_view(), name="club-federation-decline"),
    path(f"{FED}leave/", MembershipLeave.as_view(), name="club-federation-leave"),
    path(f"{FED}links/", ClubLinks.as_view(), name="club-federation-links"),
    path(LINK, LinkDetail.as_view(), name="club-federation-link"),
    path(f"{LINK}confirm/", ClaimConfirm.as_view(), name="club-federation-claim-confirm"),
    path(f"{LINK}refuse/", ClaimRefuse.as_view(), name="club-federation-claim-refuse"),
    path(f"{FED}tournaments/", ClubTournaments.as_view(), name="club-federation-tournaments"),
    path(
        f"{FED}tournaments/<str:public_id>/", ClubTournamentRate.as_view(), name="club-federation-tournament"
    ),
    path("federations/<slug:fed>/claim/", Claim.as_view(), name="federation-claim"),
    path("federations/<slug:fed>/people/<int:number>/", PersonDetail.as_view(), name="federation-person"),
]
