from games.api import arrange, audit, clubs, engine, evening, games, rules

urlpatterns = [
    *games.urlpatterns,
    *rules.urlpatterns,
    *evening.urlpatterns,
    *arrange.urlpatterns,
    *engine.urlpatterns,
    *clubs.urlpatterns,
    *audit.urlpatterns,
]
