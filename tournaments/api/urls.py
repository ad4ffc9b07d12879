from tournaments.api import exchange, league, seasons, tournaments

urlpatterns = [*tournaments.urlpatterns, *seasons.urlpatterns, *league.urlpatterns, *exchange.urlpatterns]
