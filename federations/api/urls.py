"""The routes of the federations app's API: every resource's, in one table."""

from __future__ import annotations

from django.urls import path

from federations import converters  # noqa: F401  (the "month" converter)
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
from federations.api.exchange import FederationExport, FederationImport
from federations.api.federations import (
    ClubEnd,
    Clubs,
    FederationDetail,
    Federations,
    OrganiserDetail,
    Organisers,
)
from federations.api.history import History, HistoryCsv, HistoryUndo
from federations.api.opens import OpenDetail, OpenEntries, OpenEntry, Opens
from federations.api.people import Claim, PersonDetail
from federations.api.ratings import (
    Families,
    Freshness,
    LiveList,
    LiveListCsv,
    Published,
    PublishedCsv,
    PublishedMonths,
    TournamentReport,
)
from federations.api.register import Merges, Register, RegisterEntry
from federations.api.seasons import Card, SeasonDetail, Seasons, Standings

MONTH = "<month:month>"

CLUB = "clubs/<slug:slug>/federations/"
FED = CLUB + "<slug:fed>/"
LINK = FED + "links/<int:link>/"

urlpatterns: list = [
    path("federations/", Federations.as_view(), name="federations"),
    # Before the federations' addresses: "import" is not one (a reserved address).
    path("federations/import/", FederationImport.as_view(), name="federation-import"),
    path("federations/<slug:slug>/", FederationDetail.as_view(), name="federation-detail"),
    path("federations/<slug:slug>/export/", FederationExport.as_view(), name="federation-export"),
    path("federations/<slug:slug>/organisers/", Organisers.as_view(), name="federation-organisers"),
    path(
        "federations/<slug:slug>/organisers/<str:username>/",
        OrganiserDetail.as_view(),
        name="federation-organiser",
    ),
    path("federations/<slug:slug>/clubs/", Clubs.as_view(), name="federation-clubs"),
    path("federations/<slug:slug>/clubs/<slug:club>/end/", ClubEnd.as_view(), name="federation-club-end"),
    path("federations/<slug:slug>/register/", Register.as_view(), name="federation-register"),
    path("federations/<slug:slug>/register/<int:number>/", RegisterEntry.as_view(), name="federation-entry"),
    path("federations/<slug:slug>/merges/", Merges.as_view(), name="federation-merges"),
    path("federations/<slug:slug>/history/", History.as_view(), name="federation-history"),
    path("federations/<slug:slug>/history/<int:change>/undo/", HistoryUndo.as_view(), name="federation-undo"),
    path("federations/<slug:slug>/history/csv/", HistoryCsv.as_view(), name="federation-history-csv"),
    path("federations/<slug:slug>/opens/", Opens.as_view(), name="federation-opens"),
    path("federations/<slug:slug>/opens/<str:public_id>/", OpenDetail.as_view(), name="federation-open"),
    path(
        "federations/<slug:slug>/opens/<str:public_id>/entries/",
        OpenEntries.as_view(),
        name="federation-open-entries",
    ),
    path(
        "federations/<slug:slug>/opens/<str:public_id>/entries/<int:number>/",
        OpenEntry.as_view(),
        name="federation-open-entry",
    ),
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
    path("federations/<slug:slug>/ratings/", Families.as_view(), name="federation-rating-families"),
    path("federations/<slug:slug>/ratings/<slug:family>/", LiveList.as_view(), name="federation-rating-list"),
    path(
        "federations/<slug:slug>/ratings/<slug:family>/csv/",
        LiveListCsv.as_view(),
        name="federation-rating-list-csv",
    ),
    path(
        "federations/<slug:slug>/ratings/<slug:family>/published/",
        PublishedMonths.as_view(),
        name="federation-published-months",
    ),
    path(
        f"federations/<slug:slug>/ratings/<slug:family>/published/{MONTH}/",
        Published.as_view(),
        name="federation-published-list",
    ),
    path(
        f"federations/<slug:slug>/ratings/<slug:family>/published/{MONTH}/csv/",
        PublishedCsv.as_view(),
        name="federation-published-list-csv",
    ),
    path("federations/<slug:slug>/freshness/", Freshness.as_view(), name="federation-freshness"),
    path("federations/<slug:slug>/seasons/", Seasons.as_view(), name="federation-seasons"),
    path(
        "federations/<slug:slug>/seasons/<str:public_id>/", SeasonDetail.as_view(), name="federation-season"
    ),
    path(
        "federations/<slug:slug>/seasons/<str:public_id>/standings/",
        Standings.as_view(),
        name="federation-season-standings",
    ),
    path(
        "federations/<slug:slug>/seasons/<str:public_id>/people/<int:number>/card/",
        Card.as_view(),
        name="federation-season-card",
    ),
    path(
        "tournaments/<str:public_id>/federations/<slug:fed_slug>/report/",
        TournamentReport.as_view(),
        name="tournament-federation-report",
    ),
]
