"""Žolíky games stored before the joker limit in groups became its own house rule keep the
reading they were played under: the limit held in groups whenever it held in runs."""

from django.db import migrations

FAMILY = "zoliky"
OPTION = "half_jokers_groups"


def keep_reading(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(family=FAMILY).only("pk", "options").iterator():
        options = dict(game.options or {})
        if OPTION not in options:
            options[OPTION] = bool(options.get("half_jokers", True))
            Game.objects.filter(pk=game.pk).update(options=options)


def drop_option(apps, schema_editor):
    # The code before this migration knows no such option and would refuse the game's rules.
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(family=FAMILY).only("pk", "options").iterator():
        options = dict(game.options or {})
        if options.pop(OPTION, None) is not None:
            Game.objects.filter(pk=game.pk).update(options=options)


class Migration(migrations.Migration):
    dependencies = [("games", "0015_drop_sheet_copy")]

    operations = [migrations.RunPython(keep_reading, drop_option)]
