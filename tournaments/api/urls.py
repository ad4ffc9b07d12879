from tournaments.api import exchange, home, league, seasons, table_answers, tournaments

urlpatterns = [
    *tournaments.urlpatterns,
    *table_answers.urlpatterns,
    *seasons.urlpatterns,
    *league.urlpatterns,
    *exchange.urlpatterns,
    *home.urlpatterns,
]
