from django.urls import path

from federations.views import clubs, people

CLUB = "c/<slug:slug>/federations/"
LINK = CLUB + "<slug:fed>/links/<int:pk>/"

app_name = "federations"
urlpatterns: list = [
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
]
