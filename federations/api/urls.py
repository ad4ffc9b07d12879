"""The routes of the federations app's API."""

from django.urls import path

from federations import converters  # noqa: F401  (the "month" converter)
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

MONTH = "<month:month>"

urlpatterns: list = [
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
    path(
        "tournaments/<str:public_id>/federations/<slug:fed_slug>/report/",
        TournamentReport.as_view(),
        name="tournament-federation-report",
    ),
]
