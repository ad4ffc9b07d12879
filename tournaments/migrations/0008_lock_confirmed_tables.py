"""The tables of rounds confirmed before results were locked on confirmation are locked now:
their links stop writing, as every confirmed table's do."""

from django.db import migrations


def lock(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(tournament_table__round__status="confirmed").update(results_locked=True)


def unlock(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(tournament_table__isnull=False).update(results_locked=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_game_results_locked"),
        ("tournaments", "0007_tournamentchange_target"),
    ]

    operations = [migrations.RunPython(lock, unlock)]
