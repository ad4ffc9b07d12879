from tournaments.api import exchange, home, league, seasons, tournaments

urlpatterns = [
    *tournaments.urlpatterns,
    *seasons.urlpatterns,
    *league.urlpatterns,
    *exchange.urlpatterns,
    *home.urlpatterns,
]
