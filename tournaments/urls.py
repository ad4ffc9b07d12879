from django.urls import path

from tournaments import public_views, views

app_name = "tournaments"
urlpatterns = [
    path("c/<slug:slug>/tournaments/", views.club_list, name="club_list"),
    path("c/<slug:slug>/tournaments/new/", views.tournament_new, name="new"),
    path("t/<str:public_id>/", views.detail, name="detail"),
    path("t/<str:public_id>/settings/", views.settings_view, name="settings"),
    path("t/<str:public_id>/players/", views.players, name="players"),
    path("t/<str:public_id>/players/<int:pk>/", views.entry_action, name="entry"),
    path("t/<str:public_id>/r/<int:number>/", views.round_view, name="round"),
    path("t/<str:public_id>/r/<int:number>/seat/", views.round_seat_view, name="round_seat"),
    path("t/<str:public_id>/r/<int:number>/move/", views.round_move_view, name="round_move"),
    path("t/<str:public_id>/r/<int:number>/start/", views.round_start_view, name="round_start"),
    path("t/<str:public_id>/r/<int:number>/confirm/", views.round_confirm_view, name="round_confirm"),
    path("t/<str:public_id>/r/<int:number>/links/", views.round_links, name="round_links"),
    path("t/<str:public_id>/standings/", public_views.standings, name="standings"),
    path("t/<str:public_id>/seat/", public_views.find_seat_view, name="find_seat"),
    path("t/<str:public_id>/screen/", public_views.screen, name="screen"),
    path("t/<str:public_id>/history/", public_views.history, name="history"),
]
