from django.urls import path

from games.views import accounts as account_views
from games.views import arrange as arrange_views
from games.views import audit as audit_views
from games.views import clubs as club_views
from games.views import conflict
from games.views import dates as date_views
from games.views import ending as ending_views
from games.views import evening as evening_views
from games.views import games as views
from games.views import hand_entry as hand_views
from games.views import links as link_views
from games.views import manage as manage_views
from games.views import polling as live_views
from games.views import rematch as rematch_views
from games.views import rules as rules_views
from games.views import timer as timer_views

app_name = "games"
urlpatterns = [
    path("games/", views.game_list, name="list"),
    path("games/new/", views.game_new, name="new"),
    path("games/new/<slug:family>/", views.game_new_family, name="new_family"),
    path("g/<str:public_id>/", views.game_detail, name="detail"),
    path("g/<str:public_id>/hands/", hand_views.hand_create, name="hand_create"),
    path("g/<str:public_id>/hands/conflict/", conflict.conflict_resolve, name="hand_conflict"),
    path("g/<str:public_id>/hands/<int:number>/", hand_views.hand_edit_view, name="hand_edit"),
    path("g/<str:public_id>/hands/<int:number>/delete/", hand_views.hand_delete_view, name="hand_delete"),
    path("g/<str:public_id>/missing/", hand_views.missing_counts, name="missing_counts"),
    path("g/<str:public_id>/live/", live_views.game_live, name="live"),
    path("g/<str:public_id>/history/", views.history, name="history"),
    path("g/<str:public_id>/history/<int:change_id>/undo/", views.undo, name="undo"),
    path("g/<str:public_id>/end/", views.end, name="end"),
    path("g/<str:public_id>/settlement/", views.settlement, name="settlement"),
    path("g/<str:public_id>/evening/", evening_views.evening, name="evening"),
    path("g/<str:public_id>/rematch/", rematch_views.rematch, name="rematch"),
    path("g/<str:public_id>/transfer/", manage_views.transfer, name="transfer"),
    path("g/<str:public_id>/delete/", manage_views.delete, name="delete"),
    path("g/<str:public_id>/date/", date_views.game_date, name="date"),
    path("g/<str:public_id>/rules/", rules_views.game_rules_page, name="rules"),
    path("rules/<slug:family>/", rules_views.family_rules_page, name="family_rules"),
    path("g/<str:public_id>/timer/", timer_views.game_timer_page, name="timer"),
    path("g/<str:public_id>/check/", hand_views.meld_check, name="check"),
    path("g/<str:public_id>/arrange/", arrange_views.arrange_page, name="arrange"),
    path("g/<str:public_id>/count/", hand_views.count, name="count"),
    path("g/<str:public_id>/hands/ending/", ending_views.hand_ending_preview, name="hand_ending"),
    # The edit link: the token in the fragment (docs/DESIGN.md, "Hardening"); the older form with
    # the token in the path, already shared, still works.
    path("g/<str:public_id>/edit/", link_views.edit_link_page, name="edit_link_page"),
    path("g/<str:public_id>/edit/<str:token>/", views.edit_link, name="edit_link"),
    path("g/<str:public_id>/new-edit-link/", views.edit_link_renew_view, name="edit_link_renew"),
    # Clubs
    path("clubs/", club_views.club_list, name="clubs"),
    path("clubs/join/", club_views.club_join_page, name="club_join_page"),
    path("clubs/join/<str:token>/", club_views.club_join_view, name="club_join"),
    path("c/<slug:slug>/", club_views.club_detail, name="club"),
    path("c/<slug:slug>/settings/", club_views.club_settings, name="club_settings"),
    path("c/<slug:slug>/members/", club_views.club_members_view, name="club_members"),
    path("c/<slug:slug>/members/<int:pk>/role/", club_views.member_role, name="member_role"),
    path("c/<slug:slug>/members/<int:pk>/remove/", club_views.member_remove, name="member_remove"),
    path("c/<slug:slug>/invites/", club_views.invite_new, name="invite_new"),
    path("c/<slug:slug>/invites/<int:pk>/revoke/", club_views.invite_revoke_view, name="invite_revoke"),
    path("c/<slug:slug>/history/", club_views.club_history_view, name="club_history"),
    path("c/<slug:slug>/history/<int:pk>/undo/", club_views.club_undo, name="club_undo"),
    path("c/<slug:slug>/audit/", audit_views.club_audit, name="club_audit"),
    path("c/<slug:slug>/audit.csv", audit_views.club_audit_csv, name="club_audit_csv"),
    path("c/<slug:slug>/members/<int:pk>/reset-link/", account_views.reset_link_new, name="reset_link_new"),
    path("c/<slug:slug>/players/", club_views.club_players, name="club_players"),
    path("c/<slug:slug>/players/<int:pk>/", club_views.player_detail, name="club_player"),
    path("c/<slug:slug>/players/<int:pk>/rename/", club_views.player_rename_view, name="club_player_rename"),
    path("c/<slug:slug>/players/<int:pk>/merge/", club_views.player_merge_view, name="club_player_merge"),
    path("c/<slug:slug>/players/<int:pk>/claim/", club_views.player_claim_view, name="club_player_claim"),
    # A user's own roster (private games)
    path("players/", club_views.own_players, name="own_players"),
    path("players/<int:pk>/", club_views.player_detail, name="own_player"),
    path("players/<int:pk>/rename/", club_views.player_rename_view, name="own_player_rename"),
]
