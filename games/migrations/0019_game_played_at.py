"""A game's own date of play. Games stored before it was played when they were started (their
``created_at``, which a club import set to the game's date): that is their date of play."""

import django.utils.timezone
from django.db import migrations, models


def date_from_start(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.update(played_at=models.F("created_at"))


class Migration(migrations.Migration):
    dependencies = [("games", "0018_club_rating_list_settings")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="played_at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name="played"),
        ),
        migrations.RunPython(date_from_start, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="change",
            name="action",
            field=models.CharField(
                choices=[
                    ("added", "added"),
                    ("edited", "edited"),
                    ("deleted", "deleted"),
                    ("ended", "ended the game"),
                    ("reopened", "reopened the game"),
                    ("new_link", "made a new edit link"),
                    ("transfer", "gave the game to another starter"),
                    ("removed", "deleted the game"),
                    ("restored", "brought the game back"),
                    ("dated", "changed the date of play"),
                ],
                max_length=8,
            ),
        ),
    ]
