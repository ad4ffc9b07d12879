"""Changes to the game itself in its history: ended, reopened (undoable), a new edit link."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0005_seat_player_required")]

    operations = [
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
                ],
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="change",
            name="hand_number",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
