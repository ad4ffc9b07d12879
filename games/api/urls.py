from games.api import arrange, audit, clubs, engine, games, rules, tokens

urlpatterns = [
    *games.urlpatterns,
    *rules.urlpatterns,
    *arrange.urlpatterns,
    *engine.urlpatterns,
    *clubs.urlpatterns,
    *tokens.urlpatterns,
    *audit.urlpatterns,
]
