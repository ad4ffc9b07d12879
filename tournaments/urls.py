from django.urls import path

from tournaments.views import answers as answer_views
from tournaments.views import door as door_views
from tournaments.views import exchange as exchange_views
from tournaments.views import league as league_views
from tournaments.views import players as player_views
from tournaments.views import printing as print_views
from tournaments.views import public as public_views
from tournaments.views import rounds as round_views
from tournaments.views import seasons as season_views
from tournaments.views import standings as standing_views
from tournaments.views import tournaments as views

app_name = "tournaments"
urlpatterns = [
    path("c/<slug:slug>/tournaments/", views.club_list, name="club_list"),
    path("c/<slug:slug>/tournaments/new/", views.tournament_new, name="new"),
    path("t/<str:public_id>/", views.detail, name="detail"),
    path("t/<str:public_id>/settings/", views.settings_view, name="settings"),
    path("t/<str:public_id>/players/", player_views.players, name="players"),
    path("t/<str:public_id>/players/<int:pk>/", player_views.entry_action, name="entry"),
    path("t/<str:public_id>/penalties/", standing_views.penalties_view, name="penalties"),
    path("t/<str:public_id>/penalties/undo/", standing_views.penalty_undo_view, name="penalty_undo"),
    path("t/<str:public_id>/apart/", player_views.apart_view, name="apart"),
    path("t/<str:public_id>/door/", player_views.door_view, name="door"),
    path("t/<str:public_id>/check-in/<str:key>/", door_views.check_in, name="check_in"),
    path("t/<str:public_id>/r/<int:number>/", round_views.round_view, name="round"),
    path("t/<str:public_id>/r/<int:number>/seat/", round_views.round_seat_view, name="round_seat"),
    path("t/<str:public_id>/r/<int:number>/move/", round_views.round_move_view, name="round_move"),
    path("t/<str:public_id>/r/<int:number>/start/", round_views.round_start_view, name="round_start"),
    path("t/<str:public_id>/r/<int:number>/publish/", round_views.round_publish_view, name="round_publish"),
    path(
        "t/<str:public_id>/r/<int:number>/unpublish/",
        round_views.round_unpublish_view,
        name="round_unpublish",
    ),
    path(
        "t/<str:public_id>/standings/reveal/", standing_views.standings_reveal_view, name="standings_reveal"
    ),
    path(
        "t/<str:public_id>/standings/freeze/", standing_views.standings_freeze_view, name="standings_freeze"
    ),
    path("t/<str:public_id>/r/<int:number>/confirm/", round_views.round_confirm_view, name="round_confirm"),
    path("t/<str:public_id>/r/<int:number>/links/", round_views.round_links, name="round_links"),
    path("t/<str:public_id>/r/<int:number>/final-undo/", round_views.final_undo_view, name="final_undo"),
    path("t/<str:public_id>/final/", round_views.final_seat_view, name="final_seat"),
    path("t/<str:public_id>/r/<int:number>/print/", print_views.pairings, name="print_pairings"),
    path("t/<str:public_id>/r/<int:number>/slips/", print_views.slips, name="print_slips"),
    path("t/<str:public_id>/standings/", public_views.standings, name="standings"),
    path("t/<str:public_id>/standings/print/", print_views.standings, name="print_standings"),
    path("t/<str:public_id>/standings.csv", public_views.standings_csv, name="standings_csv"),
    path("t/<str:public_id>/seat/", public_views.find_seat_view, name="find_seat"),
    path("t/<str:public_id>/p/<int:entry_id>/", public_views.player, name="player"),
    path("t/<str:public_id>/p/<int:entry_id>/<str:key>/", answer_views.own_page, name="own"),
    path("t/<str:public_id>/screen/", public_views.screen, name="screen"),
    path("t/<str:public_id>/history/", public_views.history, name="history"),
    path("clubs/import/", exchange_views.club_import, name="club_import"),
    # Seasons (league standings) and ratings
    path("c/<slug:slug>/seasons/", season_views.club_seasons, name="season_list"),
    path("c/<slug:slug>/seasons/new/", season_views.season_new, name="season_new"),
    path("s/<str:public_id>/", season_views.season_detail, name="season"),
    path("s/<str:public_id>/settings/", season_views.season_settings, name="season_settings"),
    path("c/<slug:slug>/players/<int:pk>/ratings/", season_views.player_ratings, name="player_ratings"),
    path("c/<slug:slug>/players/<int:pk>/versus/", season_views.head_to_head, name="head_to_head"),
    path("c/<slug:slug>/ratings/", league_views.rating_list, name="rating_list"),
    path("c/<slug:slug>/ratings/csv/", league_views.rating_list_csv, name="rating_list_csv"),
    path("s/<str:public_id>/csv/", league_views.season_csv, name="season_csv"),
    path("s/<str:public_id>/players/<int:pk>/", league_views.league_card, name="league_card"),
    path("s/<str:public_id>/players/<int:pk>/csv/", league_views.league_card_csv, name="league_card_csv"),
]
