from games.api import clubs, engine, games, tokens

urlpatterns = [*games.urlpatterns, *engine.urlpatterns, *clubs.urlpatterns, *tokens.urlpatterns]
