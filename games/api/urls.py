from games.api import arrange, audit, clubs, engine, evening, games, rules, tokens

urlpatterns = [
    *games.urlpatterns,
    *rules.urlpatterns,
    *evening.urlpatterns,
    *arrange.urlpatterns,
    *engine.urlpatterns,
    *clubs.urlpatterns,
    *tokens.urlpatterns,
    *audit.urlpatterns,
]
