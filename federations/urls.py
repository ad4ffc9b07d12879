from django.urls import path

from federations import converters  # noqa: F401  (the "month" converter)
from federations.views import ratings as rating_views

app_name = "federations"
urlpatterns: list = [
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
    path(
        "t/<str:public_id>/federation/<slug:fed_slug>/report/",
        rating_views.tournament_report,
        name="tournament_report",
    ),
]
