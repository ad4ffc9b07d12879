"""The federations app's pages: the organisers' side (a federation, its settings, clubs,
register and history), a club's side of its federations and a person's pages."""

from __future__ import annotations

from django.urls import path

from federations import converters  # noqa: F401  (the "month" converter)
from federations.views import clubs, exchange, federations, history, memberships, opens, people, register
from federations.views import ratings as rating_views
from federations.views import seasons as season_views

app_name = "federations"

CLUB = "c/<slug:slug>/federations/"
LINK = CLUB + "<slug:fed>/links/<int:pk>/"

app_name = "federations"
urlpatterns: list = [
    path("federations/", federations.federation_list, name="list"),
    path("federations/new/", federations.federation_new, name="new"),
    path("federations/import/", exchange.federation_import, name="import"),
    path("f/<slug:slug>/", federations.federation_detail, name="detail"),
    path("f/<slug:slug>/settings/", federations.federation_settings, name="settings"),
    path("f/<slug:slug>/export/", exchange.federation_export, name="export"),
    path("f/<slug:slug>/settings/organisers/add/", federations.organiser_add_view, name="organiser_add"),
    path(
        "f/<slug:slug>/settings/organisers/remove/",
        federations.organiser_remove_view,
        name="organiser_remove",
    ),
    path("f/<slug:slug>/clubs/", memberships.federation_clubs, name="clubs"),
    path("f/<slug:slug>/clubs/end/", memberships.federation_club_end, name="club_end"),
    path("f/<slug:slug>/register/", register.federation_register, name="register"),
    path("f/<slug:slug>/register/merge/", register.register_merge, name="merge"),
    path("f/<slug:slug>/register/<int:number>/edit/", register.register_edit, name="person_edit"),
    path("f/<slug:slug>/history/", history.federation_history, name="history"),
    path("f/<slug:slug>/history/undo/", history.history_undo, name="undo"),
    path("f/<slug:slug>/history/csv/", history.federation_history_csv, name="history_csv"),
    # Opens: tournaments hosted by member clubs for the federation
    path("f/<slug:slug>/opens/", opens.opens_list, name="opens"),
    path("f/<slug:slug>/opens/<str:public_id>/", opens.open_detail, name="open"),
    path("f/<slug:slug>/opens/<str:public_id>/enter/", opens.open_enter_view, name="open_enter"),
    path("f/<slug:slug>/opens/<str:public_id>/withdraw/", opens.open_withdraw_view, name="open_withdraw"),
    path("f/<slug:slug>/opens/<str:public_id>/end/", opens.open_end_view, name="open_end"),
    path("t/<str:public_id>/federation-open/", opens.open_host_view, name="open_host"),
    path(CLUB, clubs.club_federations, name="club"),
    *[
        path(
            f"{CLUB}<slug:fed>/{answer}/", clubs.membership_answer, {"answer": answer}, name=f"club_{answer}"
        )
        for answer in ("accept", "decline", "leave")
    ],
    path(f"{CLUB}<slug:fed>/links/", clubs.link_new, name="club_link"),
    path(f"{LINK}remove/", clubs.link_delete, name="club_unlink"),
    *[
        path(f"{LINK}{answer}/", clubs.claim_decide, {"answer": answer}, name=f"club_{answer}")
        for answer in ("confirm", "refuse")
    ],
    path(f"{CLUB}<slug:fed>/tournaments/<str:public_id>/rate/", clubs.tournament_rate_view, name="club_rate"),
    path("f/<slug:slug>/claim/", people.claim_page, name="claim"),
    path("f/<slug:slug>/register/<int:number>/", people.person_detail, name="person"),
    # The rating lists
    path("f/<slug:slug>/ratings/", rating_views.rating_list, name="ratings"),
    path("f/<slug:slug>/ratings/<slug:family>/", rating_views.rating_list, name="ratings_family"),
    path("f/<slug:slug>/ratings/<slug:family>/csv/", rating_views.rating_list_csv, name="ratings_csv"),
    path("f/<slug:slug>/ratings/<slug:family>/<month:month>/", rating_views.published_list, name="published"),
    path(
        "f/<slug:slug>/ratings/<slug:family>/<month:month>/csv/",
        rating_views.published_list_csv,
        name="published_csv",
    ),
    # The seasons (a Grand Prix)
    path("f/<slug:slug>/seasons/", season_views.season_list, name="seasons"),
    path("f/<slug:slug>/seasons/new/", season_views.season_new, name="season_new"),
    path("f/<slug:slug>/seasons/<str:public_id>/", season_views.season_detail, name="season"),
    path(
        "f/<slug:slug>/seasons/<str:public_id>/settings/",
        season_views.season_settings,
        name="season_settings",
    ),
    path(
        "f/<slug:slug>/seasons/<str:public_id>/delete/", season_views.season_delete_view, name="season_delete"
    ),
    path(
        "f/<slug:slug>/seasons/<str:public_id>/people/<int:number>/",
        season_views.season_card,
        name="season_card",
    ),
    path(
        "t/<str:public_id>/federation/<slug:fed_slug>/report/",
        rating_views.tournament_report,
        name="tournament_report",
    ),
]
