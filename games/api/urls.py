from games.api import arrange, audit, clubs, engine, evening, games, rules, timer

urlpatterns = [
    *games.urlpatterns,
    *rules.urlpatterns,
    *timer.urlpatterns,
    *evening.urlpatterns,
    *arrange.urlpatterns,
    *engine.urlpatterns,
    *clubs.urlpatterns,
    *audit.urlpatterns,
]
