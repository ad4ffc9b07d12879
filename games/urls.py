from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("games/", views.game_list, name="list"),
    path("games/new/", views.game_new, name="new"),
    path("games/new/<slug:family>/", views.game_new_family, name="new_family"),
    path("g/<str:public_id>/", views.game_detail, name="detail"),
    path("g/<str:public_id>/hands/", views.hand_create, name="hand_create"),
    path("g/<str:public_id>/hands/<int:number>/", views.hand_edit_view, name="hand_edit"),
    path("g/<str:public_id>/hands/<int:number>/delete/", views.hand_delete_view, name="hand_delete"),
    path("g/<str:public_id>/history/", views.history, name="history"),
    path("g/<str:public_id>/history/<int:change_id>/undo/", views.undo, name="undo"),
    path("g/<str:public_id>/end/", views.end, name="end"),
    path("g/<str:public_id>/settlement/", views.settlement, name="settlement"),
    path("g/<str:public_id>/check/", views.meld_check, name="check"),
    path("g/<str:public_id>/count/", views.count, name="count"),
    path("g/<str:public_id>/edit/<str:token>/", views.edit_link, name="edit_link"),
]
