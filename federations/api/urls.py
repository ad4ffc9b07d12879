"""The routes of the federations app's API: every resource's, in one table."""

from __future__ import annotations

from django.urls import path

from federations.api.federations import (
    ClubEnd,
    Clubs,
    FederationDetail,
    Federations,
    OrganiserDetail,
    Organisers,
)
from federations.api.history import History, HistoryCsv, HistoryUndo
from federations.api.register import Merges, Register, RegisterEntry

urlpatterns = [
    path("federations/", Federations.as_view(), name="federations"),
    path("federations/<slug:slug>/", FederationDetail.as_view(), name="federation-detail"),
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
]
