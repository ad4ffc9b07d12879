"""Žolíky tournaments stored before the joker limit in groups became its own house rule keep the
reading they were played under: the limit held in groups whenever it held in runs."""

from django.db import migrations

FAMILY = "zoliky"
OPTION = "half_jokers_groups"


def keep_reading(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(family=FAMILY).only("pk", "options").iterator():
        options = dict(tournament.options or {})
        if OPTION not in options:
            options[OPTION] = bool(options.get("half_jokers", True))
            Tournament.objects.filter(pk=tournament.pk).update(options=options)


def drop_option(apps, schema_editor):
    # The code before this migration knows no such option and would refuse the tournament's rules.
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(family=FAMILY).only("pk", "options").iterator():
        options = dict(tournament.options or {})
        if options.pop(OPTION, None) is not None:
            Tournament.objects.filter(pk=tournament.pk).update(options=options)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_family_from_registry")]

    operations = [migrations.RunPython(keep_reading, drop_option)]
