import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0004_seat_players")]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="seats", to="games.player"
            ),
        ),
    ]
