"""The federations app's pages: the organisers' side (a federation, its settings, clubs,
register and history)."""

from __future__ import annotations

from django.urls import path

from federations.views import clubs, federations, history, register

app_name = "federations"
urlpatterns = [
    path("federations/", federations.federation_list, name="list"),
    path("federations/new/", federations.federation_new, name="new"),
    path("f/<slug:slug>/", federations.federation_detail, name="detail"),
    path("f/<slug:slug>/settings/", federations.federation_settings, name="settings"),
    path("f/<slug:slug>/settings/organisers/add/", federations.organiser_add_view, name="organiser_add"),
    path(
        "f/<slug:slug>/settings/organisers/remove/",
        federations.organiser_remove_view,
        name="organiser_remove",
    ),
    path("f/<slug:slug>/clubs/", clubs.federation_clubs, name="clubs"),
    path("f/<slug:slug>/clubs/end/", clubs.federation_club_end, name="club_end"),
    path("f/<slug:slug>/register/", register.federation_register, name="register"),
    path("f/<slug:slug>/register/merge/", register.register_merge, name="merge"),
    path("f/<slug:slug>/register/<int:number>/edit/", register.register_edit, name="person_edit"),
    path("f/<slug:slug>/history/", history.federation_history, name="history"),
    path("f/<slug:slug>/history/undo/", history.history_undo, name="undo"),
    path("f/<slug:slug>/history/csv/", history.federation_history_csv, name="history_csv"),
]
