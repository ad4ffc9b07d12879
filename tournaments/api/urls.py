from tournaments.api import exchange, seasons, tournaments

urlpatterns = [*tournaments.urlpatterns, *seasons.urlpatterns, *exchange.urlpatterns]
